package shops

import (
	"context"
	"net/url"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/corsdomain"
	"github.com/checkoutd/checkoutd/ent/shop"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// normalizeOrigin turns "https://Shop.example.com/" into "https://shop.example.com".
func normalizeOrigin(domain string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(domain))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return "", false
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), true
}

// CorsDomains lists the shop's allowlist, oldest first.
func (s *Service) CorsDomains(ctx context.Context, sh *ent.Shop) ([]*ent.CorsDomain, error) {
	return s.p.DB.Read.CorsDomain.Query().Where(corsdomain.ShopID(sh.ID)).Order(corsdomain.ByID()).All(ctx)
}

// AddCorsDomain allows an origin; adding one already listed changes nothing.
func (s *Service) AddCorsDomain(ctx context.Context, sh *ent.Shop, domain string) ([]*ent.CorsDomain, error) {
	if input.TooLong(domain, input.MaxURLText) {
		return nil, input.TextTooLong("domain", input.MaxURLText)
	}
	origin, ok := normalizeOrigin(domain)
	if !ok {
		return nil, problem.Validation("cors.invalid_domain", "domain must be a protocol and host, like https://shop.example.com", map[string]any{"field": "domain"})
	}
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		exists, err := tx.CorsDomain.Query().Where(corsdomain.ShopID(sh.ID), corsdomain.Domain(origin)).Exist(ctx)
		if err != nil || exists {
			return err
		}
		return tx.CorsDomain.Create().SetShopID(sh.ID).SetDomain(origin).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return s.CorsDomains(ctx, sh)
}

// DeleteCorsDomain removes one entry of the allowlist.
func (s *Service) DeleteCorsDomain(ctx context.Context, sh *ent.Shop, domainID int) error {
	n, err := s.p.DB.Client.CorsDomain.Delete().Where(corsdomain.ShopID(sh.ID), corsdomain.ID(domainID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return problem.NotFoundError("cors.domain_not_found", "no domain in the allowlist with that domain_id")
	}
	return nil
}

// OriginAllowed reports whether a browser origin may call the storefront APIs of the shop
// named shopIdentifier, in one query.
func (s *Service) OriginAllowed(ctx context.Context, shopIdentifier, origin string) (bool, error) {
	o, ok := normalizeOrigin(origin)
	if !ok {
		return false, nil
	}
	return s.p.DB.Read.CorsDomain.Query().
		Where(corsdomain.Domain(o), corsdomain.HasShopWith(shop.Identifier(shopIdentifier))).Exist(ctx)
}
