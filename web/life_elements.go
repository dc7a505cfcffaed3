package web

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) lifeElementRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/life-elements", c.admin(c.lifeElements))
	mux.Handle("GET /admin/life-elements/new", c.admin(c.newLifeElement))
	mux.Handle("POST /admin/life-elements", c.admin(c.createLifeElement))
	mux.Handle("POST /admin/life-elements/preview", c.admin(c.previewLifeElement))
	mux.Handle("GET /admin/life-elements/{id}", c.admin(c.editLifeElement))
	mux.Handle("POST /admin/life-elements/{id}", c.admin(c.updateLifeElement))
	mux.Handle("GET /admin/life-elements/{id}/delete", c.admin(c.confirmDeleteLifeElement))
	mux.Handle("POST /admin/life-elements/{id}/delete", c.admin(c.deleteLifeElement))
}

func (c *Console) lifeElements(q *request) error {
	all, err := c.svc.Shops.LifeElements(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	page := admin.PageOf(all, pageRequest(q.r))
	return q.render(http.StatusOK, lifeElementsPage(page.Items, paginationOf(q.r, page)))
}

func (c *Console) findLifeElement(q *request) (*ent.LifeElement, []*ent.LifeElement, error) {
	all, err := c.svc.Shops.LifeElements(q.ctx(), q.shop)
	if err != nil {
		return nil, nil, err
	}
	id := q.r.PathValue("id")
	for _, el := range all {
		if el.PublicID == id {
			return el, all, nil
		}
	}
	return nil, nil, &problem.Error{Kind: problem.NotFound, Type: "life_element.life_element_not_configured", Message: "no LiFE element " + id + " is configured for this shop"}
}

func (c *Console) newLifeElement(q *request) error {
	all, err := c.svc.Shops.LifeElements(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	f := newForm(url.Values{"location": {"customer_info"}, "input_type": {"text"}, "order_asc": {"1"}})
	return q.render(http.StatusOK, lifeElementPage("New LiFE element", "/admin/life-elements", "", f, previewOf(f, all, "")))
}

// lifeElementInput decodes the element form. Every field is sent, so an update sets them all:
// a blank optional field becomes null, as in a PATCH that names it.
func lifeElementInput(values url.Values, creating bool) (shops.LifeElementInput, *decoder) {
	d := newDecoder(values)
	text := func(name string) input.Nullable[string] {
		v := d.str(name)
		if v == "" {
			if creating {
				return input.Nullable[string]{}
			}
			return input.Of("")
		}
		return input.Of(v)
	}
	nullable := func(name string) input.Nullable[string] {
		return input.Nullable[string]{Set: true, Value: d.optional(name)}
	}
	in := shops.LifeElementInput{
		Location: text("location"), InputType: text("input_type"), MetaDataField: text("meta_data_field"),
		InputDefault: nullable("input_default"), InputLabel: nullable("input_label"),
		InputPlaceholder: nullable("input_placeholder"), InputRegex: nullable("input_regex"),
		InputRequired: input.Of(d.checkbox("input_required")),
	}
	if n := d.integer("order_asc"); n != nil {
		in.OrderAsc = input.Of(*n)
	} else if !creating {
		in.OrderAsc = input.Nullable[int]{Set: true}
	}
	return in, d
}

func (c *Console) createLifeElement(q *request) error {
	in, d := lifeElementInput(q.r.PostForm, true)
	var err error
	if d.ok() {
		var el *ent.LifeElement
		if el, err = c.svc.Shops.CreateLifeElement(q.ctx(), q.shop, in); err == nil {
			return q.redirect("/admin/life-elements", "LiFE element "+el.MetaDataField+" created.")
		}
	}
	return c.lifeElementFormAgain(q, "New LiFE element", "/admin/life-elements", "", d, err)
}

// lifeElementFormAgain shows the form with what was wrong with it.
func (c *Console) lifeElementFormAgain(q *request, title, action, id string, d *decoder, err error) error {
	f := d.form()
	if err != nil {
		if f, err = invalid(q.r.PostForm, err); err != nil {
			return err
		}
	}
	all, err := c.svc.Shops.LifeElements(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	return q.render(http.StatusUnprocessableEntity, lifeElementPage(title, action, id, f, previewOf(f, all, id)))
}

func lifeElementValues(el *ent.LifeElement) url.Values {
	v := url.Values{"location": {el.Location}, "input_type": {el.InputType}, "meta_data_field": {el.MetaDataField},
		"order_asc": {strconv.Itoa(el.OrderAsc)}}
	set := func(name string, p *string) {
		if p != nil {
			v.Set(name, *p)
		}
	}
	set("input_default", el.InputDefault)
	set("input_label", el.InputLabel)
	set("input_placeholder", el.InputPlaceholder)
	set("input_regex", el.InputRegex)
	if el.InputRequired != nil && *el.InputRequired {
		v.Set("input_required", "1")
	}
	return v
}

func (c *Console) editLifeElement(q *request) error {
	el, all, err := c.findLifeElement(q)
	if err != nil {
		return err
	}
	f := newForm(lifeElementValues(el))
	return q.render(http.StatusOK, lifeElementPage("Edit LiFE element", "/admin/life-elements/"+el.PublicID, el.PublicID, f, previewOf(f, all, el.PublicID)))
}

func (c *Console) updateLifeElement(q *request) error {
	id := q.r.PathValue("id")
	in, d := lifeElementInput(q.r.PostForm, false)
	var err error
	if d.ok() {
		var el *ent.LifeElement
		if el, err = c.svc.Shops.UpdateLifeElement(q.ctx(), q.shop, id, in); err == nil {
			return q.redirect("/admin/life-elements", "LiFE element "+el.MetaDataField+" saved.")
		}
	}
	return c.lifeElementFormAgain(q, "Edit LiFE element", "/admin/life-elements/"+id, id, d, err)
}

func (c *Console) confirmDeleteLifeElement(q *request) error {
	el, _, err := c.findLifeElement(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete LiFE element", "Delete the element "+el.MetaDataField+" at "+el.Location+"? The checkout stops showing it at once.",
		"/admin/life-elements/"+el.PublicID+"/delete", "/admin/life-elements", "Delete element", nil))
}

func (c *Console) deleteLifeElement(q *request) error {
	if err := c.svc.Shops.DeleteLifeElement(q.ctx(), q.shop, q.r.PathValue("id")); err != nil {
		return err
	}
	return q.redirect("/admin/life-elements", "LiFE element deleted.")
}

func (c *Console) previewLifeElement(q *request) error {
	all, err := c.svc.Shops.LifeElements(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, lifeElementPreview(previewOf(newForm(q.r.PostForm), all, q.r.PostForm.Get("public_id"))))
}

// previewElement is one element as the preview draws it.
type previewElement struct {
	Current       bool
	InputType     string
	Label         string
	Placeholder   string
	Default       string
	Required      bool
	MetaDataField string
	OrderAsc      int
}

// preview is the checkout with the element being edited placed among the shop's others.
type preview struct {
	Location string
	ByPlace  map[string][]previewElement
}

func previewOf(f form, all []*ent.LifeElement, editing string) preview {
	p := preview{Location: f.Get("location"), ByPlace: map[string][]previewElement{}}
	for _, el := range all {
		if el.PublicID == editing {
			continue
		}
		p.ByPlace[el.Location] = append(p.ByPlace[el.Location], previewElement{InputType: el.InputType, Label: deref(el.InputLabel),
			Placeholder: deref(el.InputPlaceholder), Default: deref(el.InputDefault), Required: el.InputRequired != nil && *el.InputRequired,
			MetaDataField: el.MetaDataField, OrderAsc: el.OrderAsc})
	}
	order, _ := strconv.Atoi(f.Get("order_asc"))
	p.ByPlace[p.Location] = append(p.ByPlace[p.Location], previewElement{Current: true, InputType: f.Get("input_type"), Label: f.Get("input_label"),
		Placeholder: f.Get("input_placeholder"), Default: f.Get("input_default"), Required: f.Checked("input_required"),
		MetaDataField: f.Get("meta_data_field"), OrderAsc: order})
	for _, els := range p.ByPlace {
		slices.SortStableFunc(els, func(a, b previewElement) int { return cmp.Compare(a.OrderAsc, b.OrderAsc) })
	}
	return p
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// dropdownOptions are the choices a dropdown element offers: its default, comma separated.
func dropdownOptions(def string) []string {
	var out []string
	for _, o := range strings.Split(def, ",") {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}
