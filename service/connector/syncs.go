package connector

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/ent/platformsync"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Syncs. A sync imports every resource of a topic from the platform: a job fetches one page of
// the platform's list operation (limit 250, in ascending platform_id, the cursor of the page
// before), imports it and, in the same transaction, records the next page's cursor and writes
// the job that fetches it. A sync interrupted by a crash goes on from its last page when the
// queue rescues its job; a page fetched twice imports nothing twice (a copy as new as the row
// is left alone). One sync runs per shop and topic, whichever process triggers it.

const (
	// SyncPageLimit is the page size asked of the platform (the spec's maximum).
	SyncPageLimit = 250
	// syncPageAttempts is how often a page is asked for before the sync fails.
	syncPageAttempts = 5
)

// syncOperations name a sync's page calls in the metrics, by topic.
var syncOperations = map[platformsync.Topic]string{platformsync.TopicCustomers: "list_customers",
	platformsync.TopicProducts: "list_products", platformsync.TopicOrders: "list_orders"}

// syncPageArgs is the job that imports page Page (counted from 0) of a sync.
type syncPageArgs struct {
	SyncID int `json:"sync_id"`
	Page   int `json:"page"`
}

func (syncPageArgs) Kind() string { return "platform_sync_page" }

func (syncPageArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: platform.QueuePlatform, MaxAttempts: syncPageAttempts}
}

type syncPageWorker struct {
	river.WorkerDefaults[syncPageArgs]
	s *Service
}

// Timeout lets a page take its destination's longest timeout, and the import after it.
func (*syncPageWorker) Timeout(*river.Job[syncPageArgs]) time.Duration {
	return MaxTimeout + 20*time.Second
}

func (w *syncPageWorker) Work(ctx context.Context, job *river.Job[syncPageArgs]) error {
	err := w.s.importPage(ctx, job.Args)
	if err != nil && job.Attempt >= job.MaxAttempts {
		w.s.failSync(context.WithoutCancel(ctx), job.Args.SyncID, err)
	}
	return err
}

// TriggerSync starts a sync of topic (customers, products or orders): 501 without a
// destination for it, 409 while one runs.
func (s *Service) TriggerSync(ctx context.Context, sh *ent.Shop, topic destination.Topic) (*ent.PlatformSync, error) {
	d, err := s.DestinationFor(ctx, sh, topic)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, &problem.Error{Kind: problem.NotConfigured, Code: "02-51", Type: "sync.no_destination",
			Message: "the shop has no destination for " + topic.String() + ": create one to sync from the platform"}
	}
	var out *ent.PlatformSync
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		out, err = tx.PlatformSync.Create().SetShopID(sh.ID).SetTopic(platformsync.Topic(topic)).SetRunning(true).Save(ctx)
		if err != nil {
			return err
		}
		return s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{{Args: syncPageArgs{SyncID: out.ID}}})
	})
	if ent.IsConstraintError(err) {
		return nil, &problem.Error{Kind: problem.Conflict, Code: problem.CodeConflict, Type: "sync.in_progress",
			Message: "a sync of " + topic.String() + " is running: wait for it to finish"}
	}
	return out, err
}

// listPage is a page of one of the platform's list operations: {data:{<topic>:[...]},
// pagination:{next}}.
type listPage struct {
	Data       map[string][]json.RawMessage `json:"data"`
	Pagination struct {
		Next *string `json:"next"`
	} `json:"pagination"`
}

// importPage fetches and imports one page of a sync, then moves the sync on.
func (s *Service) importPage(ctx context.Context, args syncPageArgs) error {
	sy, err := s.p.DB.Read.PlatformSync.Get(ctx, args.SyncID)
	if err != nil || sy.Status != platformsync.StatusRunning || sy.Pages != args.Page {
		return err // gone, finished, or this page already imported
	}
	sh, err := s.p.DB.Read.Shop.Get(ctx, sy.ShopID)
	if err != nil {
		return err
	}
	d, err := s.DestinationFor(ctx, sh, destination.Topic(sy.Topic))
	if err != nil {
		return err
	}
	if d == nil {
		s.failSync(ctx, sy.ID, fmt.Errorf("the destination for %s was deleted", sy.Topic))
		return nil
	}
	if sh.SharedSecret == "" {
		s.failSync(ctx, sy.ID, fmt.Errorf("the shop has no shared secret to sign with"))
		return nil
	}
	q := url.Values{"limit": {fmt.Sprint(SyncPageLimit)}}
	if sy.Cursor != "" {
		q.Set("cursor", sy.Cursor)
	}
	a, err := s.client.Do(ctx, Call{Operation: syncOperations[sy.Topic], Base: BaseURL(d.Destination, d.Version, sh.Identifier), Path: "/" + sy.Topic.String() + "?" + q.Encode(),
		Method: methodGet, Secret: []byte(sh.SharedSecret), Timeout: time.Duration(d.TimeoutMs) * time.Millisecond})
	if err != nil {
		return fmt.Errorf("page %d: %w", args.Page+1, err)
	}
	if !a.OK() {
		return fmt.Errorf("page %d: %s", args.Page+1, a.Said())
	}
	var page listPage
	if err := json.Unmarshal(a.Body, &page); err != nil {
		return fmt.Errorf("page %d: the answer is not a list of %s: %w", args.Page+1, sy.Topic, err)
	}
	raws := page.Data[sy.Topic.String()]
	next := ""
	if page.Pagination.Next != nil {
		next = *page.Pagination.Next
	}
	return s.p.InTx(context.WithoutCancel(ctx), func(tx *ent.Tx) error {
		invalid, err := s.importRows(ctx, tx, sh, sy.Topic, raws)
		if err != nil {
			return err
		}
		update := tx.PlatformSync.Update().Where(platformsync.ID(sy.ID), platformsync.StatusEQ(platformsync.StatusRunning),
			platformsync.Pages(args.Page)).AddPages(1).AddRows(len(raws) - invalid).AddErrors(invalid).SetCursor(next)
		if next == "" || len(raws) == 0 {
			update.SetStatus(platformsync.StatusSucceeded).SetFinishedAt(s.p.Clock()).ClearRunning()
		}
		n, err := update.Save(ctx)
		if err != nil || n == 0 {
			return err // n == 0: imported by another run of this job
		}
		if next == "" || len(raws) == 0 {
			return nil
		}
		return s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{{Args: syncPageArgs{SyncID: sy.ID, Page: args.Page + 1}}})
	})
}

// importRows imports one page of topic through the domain that owns it, and reports the rows
// it could not take (unreadable or not valid).
func (s *Service) importRows(ctx context.Context, tx *ent.Tx, sh *ent.Shop, topic platformsync.Topic, raws []json.RawMessage) (int, error) {
	unreadable := 0
	switch topic {
	case platformsync.TopicCustomers:
		rows := make([]customers.CustomerInput, 0, len(raws))
		for _, raw := range raws {
			var in customers.CustomerInput
			if json.Unmarshal(raw, &in) != nil {
				unreadable++
				continue
			}
			rows = append(rows, in)
		}
		invalid, err := s.customers.ImportCustomers(ctx, tx, sh.ID, rows)
		return invalid + unreadable, err
	case platformsync.TopicProducts:
		rows := make([]catalog.ConnectorProduct, 0, len(raws))
		for _, raw := range raws {
			var in catalog.ConnectorProduct
			if json.Unmarshal(raw, &in) != nil {
				unreadable++
				continue
			}
			rows = append(rows, in)
		}
		invalid, err := s.catalog.ImportProducts(ctx, tx, sh, rows)
		return invalid + unreadable, err
	}
	return s.platformOrders.ImportOrders(ctx, tx, sh.ID, raws)
}

// failSync ends a sync whose page could not be imported.
func (s *Service) failSync(ctx context.Context, id int, cause error) {
	err := s.p.DB.Client.PlatformSync.Update().Where(platformsync.ID(id), platformsync.StatusEQ(platformsync.StatusRunning)).
		SetStatus(platformsync.StatusFailed).SetLastError(cause.Error()).SetFinishedAt(s.p.Clock()).ClearRunning().Exec(ctx)
	if err != nil {
		s.p.Log.ErrorContext(ctx, "failing a sync", "sync", id, "error", err)
	}
}

// Syncs are the shop's syncs, newest first, for the caller to page through.
func (s *Service) Syncs(sh *ent.Shop) *ent.PlatformSyncQuery {
	return s.p.DB.Read.PlatformSync.Query().Where(platformsync.ShopID(sh.ID))
}
