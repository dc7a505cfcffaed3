package web

import (
	"net/http"
	"strconv"

	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/subscription"
)

func (c *Console) subscriptionRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/subscriptions", c.admin(c.subscriptions))
	mux.Handle("POST /admin/subscriptions/{id}/{action}", c.admin(c.subscriptionAction))
}

// subscriptionsView is a page of the shop's subscriptions, by status, walked by cursor.
type subscriptionsView struct {
	List   *subscription.List
	Status string
	Next   string
}

func (c *Console) subscriptions(q *request) error {
	query := subscription.ListQuery{Cursor: q.r.URL.Query().Get("after"), ExpandCustomer: true}
	status := q.r.URL.Query().Get("status")
	if status != "" {
		query.Statuses = []string{status}
	}
	list, err := c.svc.Subscriptions.ListSubscriptions(q.ctx(), q.shop, query)
	if err != nil {
		return err
	}
	v := subscriptionsView{List: list, Status: status}
	if list.Pagination.Next != nil {
		v.Next = "/admin/subscriptions?status=" + status + "&after=" + *list.Pagination.Next
	}
	return q.render(http.StatusOK, subscriptionsPage(v))
}

// subscriptionActions are the console's actions on one subscription, by the path's last segment.
var subscriptionActions = map[string]struct {
	done string
	run  func(c *Console, q *request, id int) (*subscription.View, error)
}{
	"pause": {"Subscription paused.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.Pause(q.ctx(), q.shop, id)
	}},
	"resume": {"Subscription resumed.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.Resume(q.ctx(), q.shop, id)
	}},
	"skip": {"Next order skipped.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.SkipNext(q.ctx(), q.shop, id)
	}},
	"place": {"Order placed.", func(c *Console, q *request, id int) (*subscription.View, error) {
		return c.svc.Subscriptions.PlaceNow(q.ctx(), q.shop, id)
	}},
}

func (c *Console) subscriptionAction(q *request) error {
	action, ok := subscriptionActions[q.r.PathValue("action")]
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if !ok || err != nil {
		return &problem.Error{Kind: problem.NotFound, Type: "admin.not_found", Message: "there is no such page"}
	}
	v, err := action.run(c, q, id)
	if err != nil {
		return err
	}
	msg := action.done
	if v.LastFailureReason != "" && v.CurrentRetries > 0 {
		msg += " Last failure: " + v.LastFailureReason
	}
	return q.redirect("/admin/subscriptions", msg)
}

func subscriptionTime(v *subscription.View) string {
	if v.NextOrderDatetime == nil {
		return "none"
	}
	return v.NextOrderDatetime.UTC().Format("2006-01-02 15:04 UTC")
}
