package shops

import (
	"context"
	"regexp"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/flow"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// FlowSummary is a checkout flow as the flows API shows it.
type FlowSummary struct {
	FlowID   string `json:"flow_id"`
	FlowName string `json:"flow_name"`
}

// BuiltinFlows are the flows every shop meets the requirements of.
var BuiltinFlows = []FlowSummary{
	{FlowID: "checkoutd-single-page", FlowName: "Single-page checkout"},
	{FlowID: "checkoutd-three-step", FlowName: "Three-step checkout"},
}

var flowIDPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,99}$`)

// flowCatalog is every flow the shop knows: the built-in ones and its registered custom ones,
// with whether each is enabled.
func (s *Service) flowCatalog(ctx context.Context, c *ent.Client, sh *ent.Shop) ([]FlowSummary, map[string]bool, error) {
	rows, err := c.Flow.Query().Where(flow.ShopID(sh.ID)).Order(flow.ByID()).All(ctx)
	if err != nil {
		return nil, nil, err
	}
	enabled := map[string]bool{}
	all := append([]FlowSummary{}, BuiltinFlows...)
	for _, r := range rows {
		enabled[r.FlowID] = r.Enabled
		if r.FlowType == "custom" {
			all = append(all, FlowSummary{FlowID: r.FlowID, FlowName: r.FlowName})
		}
	}
	return all, enabled, nil
}

func (s *Service) flowsWhere(ctx context.Context, sh *ent.Shop, wantEnabled bool) ([]FlowSummary, error) {
	all, enabled, err := s.flowCatalog(ctx, s.p.DB.Read, sh)
	if err != nil {
		return nil, err
	}
	out := []FlowSummary{}
	for _, f := range all {
		if enabled[f.FlowID] == wantEnabled {
			out = append(out, f)
		}
	}
	return out, nil
}

// EnabledFlows lists the flows the shop has enabled.
func (s *Service) EnabledFlows(ctx context.Context, sh *ent.Shop) ([]FlowSummary, error) {
	return s.flowsWhere(ctx, sh, true)
}

// AvailableFlows lists the flows the shop could enable; enabled ones are not listed.
func (s *Service) AvailableFlows(ctx context.Context, sh *ent.Shop) ([]FlowSummary, error) {
	return s.flowsWhere(ctx, sh, false)
}

func flowNotFound(id string) *problem.Error {
	return problem.NotFoundError("flow.not_found", "no flow "+id+" is available for this shop")
}

// setFlowEnabled enables or disables a known flow and returns the enabled list.
func (s *Service) setFlowEnabled(ctx context.Context, sh *ent.Shop, flowID string, enable bool) ([]FlowSummary, error) {
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		all, enabled, err := s.flowCatalog(ctx, tx.Client(), sh)
		if err != nil {
			return err
		}
		var found *FlowSummary
		for i := range all {
			if all[i].FlowID == flowID {
				found = &all[i]
			}
		}
		if found == nil {
			return flowNotFound(flowID)
		}
		if enabled[flowID] == enable {
			typ, msg := "flow.already_enabled", "flow "+flowID+" is already enabled"
			if !enable {
				typ, msg = "flow.not_enabled", "flow "+flowID+" is not enabled"
			}
			return problem.Validation(typ, msg, map[string]any{"flow_id": flowID})
		}
		// Built-in flows get a row the first time they are enabled.
		return tx.Flow.Create().SetShopID(sh.ID).SetFlowID(flowID).SetFlowName(found.FlowName).
			SetFlowType(flowTypeOf(flowID)).SetEnabled(enable).
			OnConflictColumns(flow.FieldShopID, flow.FieldFlowID).UpdateEnabled().Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return s.EnabledFlows(ctx, sh)
}

func flowTypeOf(flowID string) string {
	for _, b := range BuiltinFlows {
		if b.FlowID == flowID {
			return "builtin"
		}
	}
	return "custom"
}

// EnableFlow enables an available flow.
func (s *Service) EnableFlow(ctx context.Context, sh *ent.Shop, flowID string) ([]FlowSummary, error) {
	return s.setFlowEnabled(ctx, sh, flowID, true)
}

// DisableFlow disables an enabled flow.
func (s *Service) DisableFlow(ctx context.Context, sh *ent.Shop, flowID string) ([]FlowSummary, error) {
	return s.setFlowEnabled(ctx, sh, flowID, false)
}

// RegisterFlowInput registers a shop's own checkout flow.
type RegisterFlowInput struct {
	FlowID   string `json:"flow_id"`
	FlowName string `json:"flow_name"`
	FlowType string `json:"flow_type"`
}

// RegisterCustomFlow makes a custom flow available to the shop and returns the available list.
func (s *Service) RegisterCustomFlow(ctx context.Context, sh *ent.Shop, in RegisterFlowInput) ([]FlowSummary, error) {
	p := input.Problems{}
	if !flowIDPattern.MatchString(in.FlowID) {
		p.Add("flow_id", "must be 1-100 letters, digits, '.', '_' or '-'")
	}
	if in.FlowName == "" {
		p.Add("flow_name", "is required")
	}
	p.Text("flow_name", in.FlowName, input.MaxShortText)
	if in.FlowType != "" && in.FlowType != "custom" {
		p.Add("flow_type", "must be custom")
	}
	if len(p) > 0 {
		return nil, problem.Validation("flow.invalid_flow_data", "invalid flow: "+p.Message(), p.Details())
	}
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		all, _, err := s.flowCatalog(ctx, tx.Client(), sh)
		if err != nil {
			return err
		}
		for _, f := range all {
			if f.FlowID == in.FlowID {
				return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "flow.already_exists",
					Message: "a flow with flow_id " + in.FlowID + " already exists", Details: map[string]any{"flow_id": in.FlowID}}
			}
		}
		return tx.Flow.Create().SetShopID(sh.ID).SetFlowID(in.FlowID).SetFlowName(in.FlowName).SetFlowType("custom").Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return s.AvailableFlows(ctx, sh)
}
