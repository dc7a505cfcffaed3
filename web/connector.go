package web

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/connectorattempt"
	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/ent/platformsync"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/problem"
)

// connectorPath is the console's platform connector page: the shop's destinations and the log
// of the calls made to them.
const connectorPath = "/admin/platform-connector"

func (c *Console) connectorRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+connectorPath, c.admin(c.platformConnector))
	mux.Handle("POST "+connectorPath+"/destinations", c.admin(c.createDestination))
	mux.Handle("GET "+connectorPath+"/destinations/{id}", c.admin(c.editDestination))
	mux.Handle("POST "+connectorPath+"/destinations/{id}", c.admin(c.updateDestination))
	mux.Handle("GET "+connectorPath+"/destinations/{id}/delete", c.admin(c.confirmDeleteDestination))
	mux.Handle("POST "+connectorPath+"/destinations/{id}/delete", c.admin(c.deleteDestination))
	mux.Handle("POST "+connectorPath+"/calls/{id}/replay", c.admin(c.replayConnectorCall))
	mux.Handle("POST "+connectorPath+"/syncs", c.admin(c.triggerCustomerSync))
}

// destinationTopics are the topics a destination serves, in the order the page lists them.
var destinationTopics = []destination.Topic{destination.TopicCustomers, destination.TopicProducts, destination.TopicOrders}

// freeTopics are the topics the shop has no live destination for: those a new one may take.
func freeTopics(ds []*ent.Destination) []option {
	var out []option
	for _, t := range destinationTopics {
		taken := false
		for _, d := range ds {
			taken = taken || d.Topic == t
		}
		if !taken {
			out = append(out, option{t.String(), t.String()})
		}
	}
	return out
}

// destinationForm is the add form as first shown: the default timeout filled in.
func destinationForm() form {
	f := newForm(nil)
	f.Values.Set("timeout_ms", strconv.Itoa(connector.DefaultTimeoutMS))
	return f
}

// timeoutHint gives timeout_ms's bounds, and what a blank field means (blank).
func timeoutHint(blank string) string {
	return fmt.Sprintf("How long each call may wait for an answer, in milliseconds: from %d to %d (%s).",
		connector.MinTimeoutMS, connector.MaxTimeoutMS, blank)
}

func (c *Console) connectorPage(q *request, status int, f form) error {
	ds, err := c.svc.Connector.Destinations(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	calls := c.svc.Connector.Calls(q.shop).
		Order(ent.Desc(connectorcall.FieldCreatedAt), ent.Desc(connectorcall.FieldID)).
		WithAttempts(func(aq *ent.ConnectorAttemptQuery) { aq.Order(ent.Asc(connectorattempt.FieldID)) })
	page, err := admin.Paged[*ent.ConnectorCall](q.ctx(), calls, pageRequest(q.r))
	if err != nil {
		return err
	}
	secretSet := q.shop.SharedSecret != ""
	syncs, err := c.svc.Connector.Syncs(q.shop).Order(ent.Desc(platformsync.FieldCreatedAt), ent.Desc(platformsync.FieldID)).Limit(5).All(q.ctx())
	if err != nil {
		return err
	}
	return q.render(status, connectorPageView(ds, freeTopics(ds), secretSet, f, syncs, page.Items, paginationOf(q.r, page)))
}

func (c *Console) platformConnector(q *request) error {
	return c.connectorPage(q, http.StatusOK, destinationForm())
}

// destinationInput is the posted form as the service's input: blank fields are not given.
func destinationInput(d *decoder) connector.DestinationInput {
	return connector.DestinationInput{Topic: d.optional("topic"), Destination: d.optional("destination"), TimeoutMS: d.integer("timeout_ms")}
}

func (c *Console) createDestination(q *request) error {
	d := newDecoder(q.r.PostForm)
	in := destinationInput(d)
	if !d.ok() {
		return c.connectorPage(q, http.StatusUnprocessableEntity, d.form())
	}
	created, err := c.svc.Connector.CreateDestination(q.ctx(), q.shop, in)
	if err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.connectorPage(q, http.StatusUnprocessableEntity, f)
	}
	return q.redirect(connectorPath, "Destination for "+created.Topic.String()+" verified and saved.")
}

// findDestination is the live destination of the path's id.
func (c *Console) findDestination(q *request) (*ent.Destination, error) {
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if err != nil {
		return nil, problem.NotFoundError("destination.not_found", "no destination with that id")
	}
	d, err := c.svc.Connector.Destination(q.ctx(), q.shop, id)
	if err != nil {
		return nil, err
	}
	if d.DeletedAt != nil {
		return nil, problem.NotFoundError("destination.not_found", "that destination was deleted")
	}
	return d, nil
}

func (c *Console) editDestination(q *request) error {
	d, err := c.findDestination(q)
	if err != nil {
		return err
	}
	f := newForm(nil)
	f.Values.Set("destination", d.Destination)
	f.Values.Set("timeout_ms", strconv.Itoa(d.TimeoutMs))
	return q.render(http.StatusOK, destinationPage(d, f))
}

func (c *Console) updateDestination(q *request) error {
	d, err := c.findDestination(q)
	if err != nil {
		return err
	}
	dec := newDecoder(q.r.PostForm)
	in := connector.DestinationInput{Destination: dec.optional("destination"), TimeoutMS: dec.integer("timeout_ms")}
	if !dec.ok() {
		return q.render(http.StatusUnprocessableEntity, destinationPage(d, dec.form()))
	}
	if _, err := c.svc.Connector.UpdateDestination(q.ctx(), q.shop, d.ID, in); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return q.render(http.StatusUnprocessableEntity, destinationPage(d, f))
	}
	return q.redirect(connectorPath, "Destination for "+d.Topic.String()+" verified and saved.")
}

func (c *Console) confirmDeleteDestination(q *request) error {
	d, err := c.findDestination(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete destination",
		"Delete the "+d.Topic.String()+" destination "+d.Destination+"? checkoutd stops calling it: calls to it not yet sent fail, and the call log keeps the calls made.",
		connectorPath+"/destinations/"+strconv.Itoa(d.ID)+"/delete", connectorPath, "Delete destination", nil))
}

func (c *Console) deleteDestination(q *request) error {
	d, err := c.findDestination(q)
	if err != nil {
		return err
	}
	if err := c.svc.Connector.DeleteDestination(q.ctx(), q.shop, d.ID); err != nil {
		return err
	}
	return q.redirect(connectorPath, "Destination for "+d.Topic.String()+" deleted.")
}

func (c *Console) replayConnectorCall(q *request) error {
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if err != nil {
		return problem.NotFoundError("connector_call.not_found", "no connector call with that id")
	}
	back := connectorPath + "#calls"
	if _, err := c.svc.Connector.ReplayCall(q.ctx(), q.shop, id); err != nil {
		if e, ok := problem.As(err); ok && e.Kind == problem.Invalid {
			return q.redirect(back, "Call "+strconv.Itoa(id)+" not replayed: "+e.Message+".")
		}
		return err
	}
	return q.redirect(back, "Call "+strconv.Itoa(id)+" queued to be sent once more, under the same Idempotency-Key.")
}

// triggerCustomerSync starts importing every customer from the platform.
func (c *Console) triggerCustomerSync(q *request) error {
	back := connectorPath + "#syncs"
	if _, err := c.svc.Connector.TriggerSync(q.ctx(), q.shop, destination.TopicCustomers); err != nil {
		if e, ok := problem.As(err); ok && e.Kind != problem.Internal {
			return q.redirect(back, "Sync not started: "+e.Message+".")
		}
		return err
	}
	return q.redirect(back, "Customer sync started: its progress shows below as pages are imported.")
}

// callOutcome is a call's last answer: the status code, the error, or both.
func callOutcome(code *int, failure *string) string {
	out := ""
	if code != nil {
		out = strconv.Itoa(*code)
	}
	if failure != nil {
		if out != "" {
			out += ": "
		}
		out += *failure
	}
	return out
}
