package web

import "net/http"

func (c *Console) paymentGatewayRoutes(mux *http.ServeMux) {}
func (c *Console) flowRoutes(mux *http.ServeMux)           {}
func (c *Console) webhookRoutes(mux *http.ServeMux)        {}
func (c *Console) integrationRoutes(mux *http.ServeMux)    {}
func (c *Console) corsRoutes(mux *http.ServeMux)           {}
func (c *Console) apiOverrideRoutes(mux *http.ServeMux)    {}
func (c *Console) giftCardRoutes(mux *http.ServeMux)       {}
func (c *Console) orderRoutes(mux *http.ServeMux)          {}
func (c *Console) catalogRoutes(mux *http.ServeMux)        {}
func (c *Console) taxRoutes(mux *http.ServeMux)            {}
func (c *Console) discountRoutes(mux *http.ServeMux)       {}
