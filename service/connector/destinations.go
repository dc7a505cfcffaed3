package connector

import (
	"context"
	"fmt"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Bounds of a destination's timeout_ms (the spec leaves them open): long enough for a platform
// across an ocean, short enough that a checkout waiting on a customer call is not stuck.
const (
	MinTimeoutMS     = 100
	MaxTimeoutMS     = 30_000
	DefaultTimeoutMS = 5_000
	MaxTimeout       = MaxTimeoutMS * time.Millisecond
)

// Version is the one connector interface version there is (the spec's v1).
const Version = "v1"

// DestinationInput is the spec's destination request; on update, fields left out stay as they are.
type DestinationInput struct {
	// ID and ShopIdentifier may be sent; when they are, they must name the destination and shop
	// of the path.
	ID             *int    `json:"id"`
	ShopIdentifier *string `json:"shop_identifier"`
	Topic          *string `json:"topic"`
	Destination    *string `json:"destination"`
	Version        *string `json:"version"`
	TimeoutMS      *int    `json:"timeout_ms"`
}

func rejected(typ, message, field string) *problem.Error {
	return &problem.Error{Kind: problem.Rejected, Code: problem.CodeBadRequest, Type: typ, Message: message, Details: map[string]any{"field": field}}
}

func destinationNotFound(id int) *problem.Error {
	return problem.NotFoundError("destination.not_found", fmt.Sprintf("the shop has no destination %d", id))
}

// destinationFields is a destination as it is to be: the stored one with the input's changes.
type destinationFields struct {
	topic       destination.Topic
	url         string
	version     string
	timeoutMS   int
	shopIdent   string
	destination *ent.Destination // nil on create
}

// check applies in to f and checks every rule that needs no call.
func (s *Service) check(sh *ent.Shop, f *destinationFields, in DestinationInput) error {
	if in.ShopIdentifier != nil && *in.ShopIdentifier != sh.Identifier {
		return rejected("destination.invalid", "shop_identifier must be the shop of the path, "+sh.Identifier, "shop_identifier")
	}
	if in.ID != nil && (f.destination == nil || *in.ID != f.destination.ID) {
		return rejected("destination.invalid", "id must be the destination of the path", "id")
	}
	if in.Topic != nil {
		t := destination.Topic(*in.Topic)
		if destination.TopicValidator(t) != nil {
			return rejected("destination.invalid", "topic must be one of customers, products, orders", "topic")
		}
		f.topic = t
	}
	if f.topic == "" {
		return rejected("destination.invalid", "topic is required: customers, products or orders", "topic")
	}
	if in.Destination != nil {
		f.url = *in.Destination
	}
	if f.url == "" {
		return rejected("destination.invalid", "destination (the connector server's base URL) is required", "destination")
	}
	if len(f.url) > input.MaxURLText {
		return rejected("destination.invalid", fmt.Sprintf("destination is longer than %d characters", input.MaxURLText), "destination")
	}
	if err := s.outbound.CheckURL(f.url); err != nil {
		return rejected("destination.invalid", "destination: "+err.Error(), "destination")
	}
	if in.Version != nil {
		f.version = *in.Version
	}
	if f.version != Version {
		return rejected("destination.invalid", "version must be "+Version, "version")
	}
	if in.TimeoutMS != nil {
		f.timeoutMS = *in.TimeoutMS
	}
	if f.timeoutMS < MinTimeoutMS || f.timeoutMS > MaxTimeoutMS {
		return rejected("destination.invalid", fmt.Sprintf("timeout_ms must be from %d to %d", MinTimeoutMS, MaxTimeoutMS), "timeout_ms")
	}
	return nil
}

// topicTaken is the refusal of a second live destination for a topic.
func topicTaken(t destination.Topic) *problem.Error {
	return rejected("destination.topic_taken", "the shop already has a destination for "+t.String()+": update or delete it", "topic")
}

// verify makes the connector's verification call (no transaction open): a failed verification
// fails the create or update, and nothing is stored.
func (s *Service) verify(ctx context.Context, sh *ent.Shop, f destinationFields) error {
	if sh.SharedSecret == "" {
		return rejected("destination.no_shared_secret", "the shop has no shared secret to sign connector calls with: set it in integration/config first", "destination")
	}
	base := BaseURL(f.url, f.version, sh.Identifier)
	if err := s.client.Verify(ctx, base, []byte(sh.SharedSecret), time.Duration(f.timeoutMS)*time.Millisecond); err != nil {
		return &problem.Error{Kind: problem.Rejected, Code: problem.CodeBadRequest, Type: "destination.verification_failed",
			Message: "the connector server at " + base + " did not pass verification: " + err.Error(),
			Details: map[string]any{"field": "destination", "url": base + "/verification"}}
	}
	return nil
}

// liveTopic reports whether the shop has a live destination for topic t other than except.
func (s *Service) liveTopic(ctx context.Context, sh *ent.Shop, t destination.Topic, except int) (bool, error) {
	return s.p.DB.Read.Destination.Query().Where(destination.ShopID(sh.ID), destination.TopicEQ(t),
		destination.DeletedAtIsNil(), destination.IDNEQ(except)).Exist(ctx)
}

// CreateDestination verifies the connector server, then stores the destination.
func (s *Service) CreateDestination(ctx context.Context, sh *ent.Shop, in DestinationInput) (*ent.Destination, error) {
	f := destinationFields{version: Version, timeoutMS: DefaultTimeoutMS}
	if err := s.check(sh, &f, in); err != nil {
		return nil, err
	}
	if taken, err := s.liveTopic(ctx, sh, f.topic, 0); err != nil || taken {
		return nil, cmpErr(err, topicTaken(f.topic))
	}
	if err := s.verify(ctx, sh, f); err != nil {
		return nil, err
	}
	d, err := s.p.DB.Client.Destination.Create().SetShopID(sh.ID).SetTopic(f.topic).SetDestination(f.url).
		SetVersion(f.version).SetTimeoutMs(f.timeoutMS).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, topicTaken(f.topic) // another create won the race
	}
	return d, err
}

// UpdateDestination changes the fields given, verifying the connector server as the destination
// is to be; a failed verification changes nothing.
func (s *Service) UpdateDestination(ctx context.Context, sh *ent.Shop, id int, in DestinationInput) (*ent.Destination, error) {
	d, err := s.Destination(ctx, sh, id)
	if err != nil {
		return nil, err
	}
	if d.DeletedAt != nil {
		return nil, destinationNotFound(id)
	}
	f := destinationFields{topic: d.Topic, url: d.Destination, version: d.Version, timeoutMS: d.TimeoutMs, destination: d}
	if err := s.check(sh, &f, in); err != nil {
		return nil, err
	}
	if f.topic != d.Topic {
		if taken, err := s.liveTopic(ctx, sh, f.topic, d.ID); err != nil || taken {
			return nil, cmpErr(err, topicTaken(f.topic))
		}
	}
	if err := s.verify(ctx, sh, f); err != nil {
		return nil, err
	}
	n, err := s.p.DB.Client.Destination.Update().Where(destination.ID(d.ID), destination.DeletedAtIsNil()).
		SetTopic(f.topic).SetDestination(f.url).SetVersion(f.version).SetTimeoutMs(f.timeoutMS).Save(ctx)
	switch {
	case ent.IsConstraintError(err):
		return nil, topicTaken(f.topic)
	case err != nil:
		return nil, err
	case n == 0:
		return nil, destinationNotFound(id) // deleted meanwhile
	}
	return s.p.DB.Client.Destination.Get(ctx, d.ID)
}

// Destinations are the shop's live destinations, by topic.
func (s *Service) Destinations(ctx context.Context, sh *ent.Shop) ([]*ent.Destination, error) {
	return s.p.DB.Read.Destination.Query().Where(destination.ShopID(sh.ID), destination.DeletedAtIsNil()).
		Order(destination.ByTopic(), destination.ByID()).All(ctx)
}

// Destination is one of the shop's destinations, deleted ones included (deleted_at says so).
func (s *Service) Destination(ctx context.Context, sh *ent.Shop, id int) (*ent.Destination, error) {
	d, err := s.p.DB.Read.Destination.Query().Where(destination.ID(id), destination.ShopID(sh.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, destinationNotFound(id)
	}
	return d, err
}

// DeleteDestination marks the destination deleted: its topic's changes call it no more.
func (s *Service) DeleteDestination(ctx context.Context, sh *ent.Shop, id int) error {
	n, err := s.p.DB.Client.Destination.Update().Where(destination.ID(id), destination.ShopID(sh.ID), destination.DeletedAtIsNil()).
		SetDeletedAt(s.p.Clock()).Save(ctx)
	if err == nil && n == 0 {
		return destinationNotFound(id)
	}
	return err
}

// DestinationFor is the shop's live destination for topic t, or nil when it has none (checkoutd
// then stays the system of record for that topic).
func (s *Service) DestinationFor(ctx context.Context, sh *ent.Shop, t destination.Topic) (*ent.Destination, error) {
	d, err := s.p.DB.Read.Destination.Query().Where(destination.ShopID(sh.ID), destination.TopicEQ(t), destination.DeletedAtIsNil()).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return d, err
}

// cmpErr is err when there is one, else refusal.
func cmpErr(err error, refusal *problem.Error) error {
	if err != nil {
		return err
	}
	return refusal
}
