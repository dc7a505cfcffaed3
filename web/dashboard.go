package web

import (
	"fmt"
	"net/http"

	"github.com/checkoutd/checkoutd/service/admin"
)

func (c *Console) dashboard(q *request) error {
	d, err := c.svc.Admin.Dashboard(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, dashboardPage(d, chartOf(d)))
}

// bar is one day of the dashboard's chart, in the SVG's units.
type bar struct {
	X, Y, W, H int
	Title      string
}

// chart is the revenue of each day as bars scaled to the best day.
type chart struct {
	Width, Height int
	Bars          []bar
}

const chartHeight = 120

func chartOf(d *admin.Dashboard) chart {
	const w = 10
	ch := chart{Width: len(d.Days) * (w + 2), Height: chartHeight}
	var top int64
	for _, day := range d.Days {
		top = max(top, day.Revenue)
	}
	for i, day := range d.Days {
		h := 0
		if top > 0 && day.Revenue > 0 {
			h = max(1, int(day.Revenue*chartHeight/top))
		}
		ch.Bars = append(ch.Bars, bar{X: i * (w + 2), Y: chartHeight - h, W: w, H: h,
			Title: fmt.Sprintf("%s: %s, %d orders", day.Day.Format("Jan 2"), formatMoney(day.Revenue, d.Currency), day.Orders)})
	}
	return ch
}
