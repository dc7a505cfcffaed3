package web

import "net/http"

func (c *Console) giftCardRoutes(mux *http.ServeMux)       {}
func (c *Console) orderRoutes(mux *http.ServeMux)          {}
func (c *Console) catalogRoutes(mux *http.ServeMux)        {}
func (c *Console) taxRoutes(mux *http.ServeMux)            {}
func (c *Console) discountRoutes(mux *http.ServeMux)       {}
