package catalog

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service/problem"
)

func productNotFound() *problem.Error {
	return problem.NotFoundError("product.not_found", "no product with that id")
}

// Product returns one product of the shop's catalog.
func (s *Service) Product(ctx context.Context, sh *ent.Shop, id int) (*ent.Product, error) {
	p, err := s.p.DB.Read.Product.Query().Where(product.ShopID(sh.ID), product.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, productNotFound()
	}
	return p, err
}

// DeleteProduct removes a product of the shop's catalog with its variants. Orders keep their
// lines (they hold copies of title, price and ids), and stock given back later for a variant
// that is gone changes nothing.
func (s *Service) DeleteProduct(ctx context.Context, sh *ent.Shop, id int) error {
	n, err := s.p.DB.Client.Product.Delete().Where(product.ShopID(sh.ID), product.ID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return productNotFound()
	}
	return nil
}

// Variant returns one variant of the shop's catalog with its product.
func (s *Service) Variant(ctx context.Context, sh *ent.Shop, id int) (*ent.Variant, error) {
	v, err := s.p.DB.Read.Variant.Query().Where(variant.ShopID(sh.ID), variant.ID(id)).WithProduct().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, problem.NotFoundError("product.variant_not_found", "no variant with that id")
	}
	return v, err
}
