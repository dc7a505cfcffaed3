package shops

import (
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/lifeelement"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// LifeElementLocations are the named places of the checkout where an element may show.
var LifeElementLocations = []string{
	"customer_info", "shipping", "billing_address_after", "shipping_lines", "below_actions",
	"summary_above_header", "payment_gateway", "thank_you_message", "order_confirmation",
	"order_details", "main_content_beginning", "main_content_end", "payment_method_above",
	"paypal_additional_information",
}

// LifeElementRegion is one page or column of the checkout, with the element locations it
// holds from top to bottom.
type LifeElementRegion struct {
	Name      string
	Locations []string
}

// LifeElementRegions place every location on the checkout's pages (the console's preview shows
// where an element lands from them).
var LifeElementRegions = []LifeElementRegion{
	{"Checkout, main column", []string{"main_content_beginning", "customer_info", "shipping", "billing_address_after", "shipping_lines",
		"payment_method_above", "payment_gateway", "paypal_additional_information", "below_actions", "main_content_end"}},
	{"Checkout, order summary", []string{"summary_above_header", "order_details"}},
	{"Thank-you page", []string{"thank_you_message", "order_confirmation"}},
}

// LifeElementInputTypes are the kinds of input an element can ask for.
var LifeElementInputTypes = []string{"text", "checkbox", "html", "textarea", "dropdown", "datepicker"}

// LifeElementInput creates an element (all required fields present) or patches one (any subset).
type LifeElementInput struct {
	Location         input.Nullable[string] `json:"location"`
	InputType        input.Nullable[string] `json:"input_type"`
	InputDefault     input.Nullable[string] `json:"input_default"`
	InputLabel       input.Nullable[string] `json:"input_label"`
	InputPlaceholder input.Nullable[string] `json:"input_placeholder"`
	InputRequired    input.Nullable[bool]   `json:"input_required"`
	InputRegex       input.Nullable[string] `json:"input_regex"`
	MetaDataField    input.Nullable[string] `json:"meta_data_field"`
	OrderAsc         input.Nullable[int]    `json:"order_asc"`
}

func invalidLifeElement(problems input.Problems) *problem.Error {
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeElementInvalid, Type: "life_element.invalid_life_element_data",
		Message: "invalid LiFE element: " + problems.Message(), Details: problems.Details()}
}

func (in LifeElementInput) validate(creating bool) error {
	p := input.Problems{}
	required := func(name string, set, hasValue bool) {
		switch {
		case creating && !set:
			p.Add(name, "is required")
		case set && !hasValue:
			p.Add(name, "cannot be null")
		}
	}
	required("location", in.Location.Set, in.Location.Value != nil)
	required("input_type", in.InputType.Set, in.InputType.Value != nil)
	required("meta_data_field", in.MetaDataField.Set, in.MetaDataField.Value != nil)
	required("order_asc", in.OrderAsc.Set, in.OrderAsc.Value != nil)
	if creating && !in.InputRequired.Set {
		p.Add("input_required", "is required")
	}
	if v := in.Location.Value; v != nil && !slices.Contains(LifeElementLocations, *v) {
		p.Add("location", "must be one of the checkout locations")
	}
	if v := in.InputType.Value; v != nil && !slices.Contains(LifeElementInputTypes, *v) {
		p.Add("input_type", "must be one of text, checkbox, html, textarea, dropdown, datepicker")
	}
	if v := in.MetaDataField.Value; v != nil && *v == "" {
		p.Add("meta_data_field", "cannot be blank")
	}
	for _, t := range []struct {
		field string
		value *string
		max   int
	}{
		{"input_default", in.InputDefault.Value, input.MaxLongText},
		{"input_label", in.InputLabel.Value, input.MaxShortText},
		{"input_placeholder", in.InputPlaceholder.Value, input.MaxShortText},
		{"meta_data_field", in.MetaDataField.Value, input.MaxShortText},
	} {
		if t.value != nil {
			p.Text(t.field, *t.value, t.max)
		}
	}
	if v := in.InputRegex.Value; v != nil && *v != "" {
		if problem := regexProblem(*v); problem != "" {
			p.Add("input_regex", problem)
		}
	}
	if len(p) > 0 {
		return invalidLifeElement(p)
	}
	return nil
}

// Bounds of input_regex: compiling a pattern within them takes milliseconds (tens at worst, for
// many large Unicode classes), so validating one cannot keep a core busy.
const (
	// MaxRegexText bounds the pattern's length.
	MaxRegexText = 1000
	// MaxRegexSize bounds the pattern's size once its counted repetitions are written out
	// (x{1,1000} is 1000 x's): that, not the length, is what compiling costs.
	MaxRegexSize = 10000
)

// regexProblem is what is wrong with an input_regex, or "". The pattern is parsed (cheap, and
// linear in its length) and measured before it is compiled.
func regexProblem(pattern string) string {
	if input.TooLong(pattern, MaxRegexText) {
		return fmt.Sprintf("is longer than %d characters", MaxRegexText)
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "is not a valid regular expression"
	}
	if regexSize(re) > MaxRegexSize {
		return fmt.Sprintf("is too complex: its repetitions write out to more than %d elements", MaxRegexSize)
	}
	if _, err := regexp.Compile(pattern); err != nil {
		return "is not a valid regular expression"
	}
	return ""
}

// regexSize counts a parsed pattern's elements with each counted repetition written out,
// stopping once past MaxRegexSize.
func regexSize(re *syntax.Regexp) int {
	n := 0
	for _, sub := range re.Sub {
		n += regexSize(sub)
		if n > MaxRegexSize {
			return n
		}
	}
	switch re.Op {
	case syntax.OpRepeat:
		times := re.Max
		if times < 0 {
			times = re.Min + 1
		}
		n *= max(times, 1)
	case syntax.OpLiteral:
		n += len(re.Rune)
	}
	return n + 1
}

// CreateLifeElement adds an element to the checkout.
func (s *Service) CreateLifeElement(ctx context.Context, sh *ent.Shop, in LifeElementInput) (*ent.LifeElement, error) {
	if err := in.validate(true); err != nil {
		return nil, err
	}
	return s.p.DB.Client.LifeElement.Create().SetShopID(sh.ID).SetPublicID(platform.NewPublicID()).
		SetLocation(*in.Location.Value).SetInputType(*in.InputType.Value).
		SetNillableInputDefault(in.InputDefault.Value).SetNillableInputLabel(in.InputLabel.Value).
		SetNillableInputPlaceholder(in.InputPlaceholder.Value).SetNillableInputRequired(in.InputRequired.Value).
		SetNillableInputRegex(in.InputRegex.Value).SetMetaDataField(*in.MetaDataField.Value).
		SetOrderAsc(*in.OrderAsc.Value).Save(ctx)
}

func lifeElementNotConfigured(code, publicID string) *problem.Error {
	return &problem.Error{Kind: problem.Invalid, Code: code, Type: "life_element.life_element_not_configured",
		Message: "no LiFE element with public_id " + publicID + " is configured for this shop", Details: map[string]any{"public_id": publicID}}
}

// UpdateLifeElement changes the attributes given and leaves the others.
func (s *Service) UpdateLifeElement(ctx context.Context, sh *ent.Shop, publicID string, in LifeElementInput) (*ent.LifeElement, error) {
	if err := in.validate(false); err != nil {
		return nil, err
	}
	var out *ent.LifeElement
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		el, err := tx.LifeElement.Query().Where(lifeelement.ShopID(sh.ID), lifeelement.PublicID(publicID)).Only(ctx)
		if ent.IsNotFound(err) {
			return lifeElementNotConfigured(problem.CodeElementInvalid, publicID)
		}
		if err != nil {
			return err
		}
		u := el.Update()
		if in.Location.Set {
			u.SetLocation(*in.Location.Value)
		}
		if in.InputType.Set {
			u.SetInputType(*in.InputType.Value)
		}
		if in.InputDefault.Set {
			input.SetOrClear(in.InputDefault.Value, u.SetInputDefault, u.ClearInputDefault)
		}
		if in.InputLabel.Set {
			input.SetOrClear(in.InputLabel.Value, u.SetInputLabel, u.ClearInputLabel)
		}
		if in.InputPlaceholder.Set {
			input.SetOrClear(in.InputPlaceholder.Value, u.SetInputPlaceholder, u.ClearInputPlaceholder)
		}
		if in.InputRequired.Set {
			input.SetOrClear(in.InputRequired.Value, u.SetInputRequired, u.ClearInputRequired)
		}
		if in.InputRegex.Set {
			input.SetOrClear(in.InputRegex.Value, u.SetInputRegex, u.ClearInputRegex)
		}
		if in.MetaDataField.Set {
			u.SetMetaDataField(*in.MetaDataField.Value)
		}
		if in.OrderAsc.Set {
			u.SetOrderAsc(*in.OrderAsc.Value)
		}
		out, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

// DeleteLifeElement removes an element.
func (s *Service) DeleteLifeElement(ctx context.Context, sh *ent.Shop, publicID string) error {
	n, err := s.p.DB.Client.LifeElement.Delete().Where(lifeelement.ShopID(sh.ID), lifeelement.PublicID(publicID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return lifeElementNotConfigured(problem.CodeElementNotFound, publicID)
	}
	return nil
}
