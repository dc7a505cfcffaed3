package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) taxRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/tax-zones", c.admin(c.taxZones))
	mux.Handle("POST /admin/tax-zones", c.admin(c.createTaxZone))
	mux.Handle("POST /admin/tax-zones/prices-include-tax", c.admin(c.setPricesIncludeTax))
	mux.Handle("GET /admin/tax-zones/{id}", c.admin(c.editTaxZone))
	mux.Handle("POST /admin/tax-zones/{id}", c.admin(c.updateTaxZone))
	mux.Handle("GET /admin/tax-zones/{id}/delete", c.admin(c.confirmDeleteTaxZone))
	mux.Handle("POST /admin/tax-zones/{id}/delete", c.admin(c.deleteTaxZone))
}

func (c *Console) taxZonesPage(q *request, status int, f form) error {
	page, err := c.svc.Admin.TaxZones(q.ctx(), q.shop, pageRequest(q.r))
	if err != nil {
		return err
	}
	return q.render(status, taxZonesPage(page.Items, q.shop.PricesIncludeTax, f, paginationOf(q.r, page)))
}

func (c *Console) taxZones(q *request) error { return c.taxZonesPage(q, http.StatusOK, newForm(nil)) }

// ratePercent shows parts per million as the percentage typed in the form.
func ratePercent(ppm int) string { return strconv.FormatFloat(float64(ppm)/10000, 'f', -1, 64) }

func (c *Console) createTaxZone(q *request) error {
	d := newDecoder(q.r.PostForm)
	in := shops.TaxZoneInput{Name: d.str("name"), CountryCode: d.str("country_code"), ProvinceCode: d.str("province_code"),
		ShippingTaxable: d.checkbox("shipping_taxable")}
	if rate := d.percentPpm("rate"); rate != nil {
		in.RatePpm = *rate
	}
	if !d.ok() {
		return c.taxZonesPage(q, http.StatusUnprocessableEntity, d.form())
	}
	z, err := c.svc.Shops.CreateTaxZone(q.ctx(), q.shop, in)
	if err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.taxZonesPage(q, http.StatusUnprocessableEntity, f.renamed(map[string]string{"rate_ppm": "rate"}))
	}
	return q.redirect("/admin/tax-zones", "Tax zone "+z.Name+" created.")
}

func (c *Console) setPricesIncludeTax(q *request) error {
	include := q.r.PostForm.Get("prices_include_tax") != ""
	if _, err := c.svc.Shops.SetPricesIncludeTax(q.ctx(), q.shop, include); err != nil {
		return err
	}
	if include {
		return q.redirect("/admin/tax-zones", "Prices now include tax.")
	}
	return q.redirect("/admin/tax-zones", "Tax is now added to prices.")
}

func (c *Console) taxZone(q *request) (*ent.TaxZone, error) {
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if err != nil {
		return nil, &problem.Error{Kind: problem.NotFound, Type: "tax.zone_not_found", Message: "no tax zone with that id"}
	}
	return c.svc.Admin.TaxZone(q.ctx(), q.shop, id)
}

func (c *Console) editTaxZone(q *request) error {
	z, err := c.taxZone(q)
	if err != nil {
		return err
	}
	f := newForm(url.Values{"name": {z.Name}, "country_code": {z.CountryCode}, "province_code": {z.ProvinceCode}, "rate": {ratePercent(z.RatePpm)}})
	if z.ShippingTaxable {
		f.Values.Set("shipping_taxable", "1")
	}
	return q.render(http.StatusOK, taxZonePage(z, f))
}

func (c *Console) updateTaxZone(q *request) error {
	z, err := c.taxZone(q)
	if err != nil {
		return err
	}
	d := newDecoder(q.r.PostForm)
	name, country, province, shipping := d.str("name"), d.str("country_code"), d.str("province_code"), d.checkbox("shipping_taxable")
	patch := shops.TaxZonePatch{Name: &name, CountryCode: &country, ProvinceCode: &province, RatePpm: d.percentPpm("rate"), ShippingTaxable: &shipping}
	if !d.ok() {
		return q.render(http.StatusUnprocessableEntity, taxZonePage(z, d.form()))
	}
	if _, err := c.svc.Shops.UpdateTaxZone(q.ctx(), q.shop, z.ID, patch); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return q.render(http.StatusUnprocessableEntity, taxZonePage(z, f.renamed(map[string]string{"rate_ppm": "rate"})))
	}
	return q.redirect("/admin/tax-zones", "Tax zone "+name+" saved.")
}

func (c *Console) confirmDeleteTaxZone(q *request) error {
	z, err := c.taxZone(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete tax zone", "Delete the tax zone "+z.Name+"? Open orders stop being taxed by it.",
		"/admin/tax-zones/"+strconv.Itoa(z.ID)+"/delete", "/admin/tax-zones", "Delete tax zone", nil))
}

func (c *Console) deleteTaxZone(q *request) error {
	z, err := c.taxZone(q)
	if err != nil {
		return err
	}
	if err := c.svc.Shops.DeleteTaxZone(q.ctx(), q.shop, z.ID); err != nil {
		return err
	}
	return q.redirect("/admin/tax-zones", "Tax zone deleted.")
}
