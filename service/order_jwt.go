package service

import (
	"context"
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
)

// OrderJWTLifetime is how long a storefront may use one order token.
const OrderJWTLifetime = 60 * time.Minute

type orderClaims struct {
	AuthType string `json:"auth_type"`
	Payload  struct {
		PublicOrderID string `json:"public_order_id"`
	} `json:"payload"`
	Shop string `json:"shop"`
	jwt.RegisteredClaims
}

// issueOrderJWT signs a token that opens exactly one order of one shop.
func (s *Service) issueOrderJWT(sh *ent.Shop, publicOrderID string) (string, error) {
	now := s.clock()
	c := orderClaims{AuthType: "V2_API", Shop: sh.Identifier, RegisteredClaims: jwt.RegisteredClaims{
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(OrderJWTLifetime)),
	}}
	c.Payload.PublicOrderID = publicOrderID
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(sh.JwtKey)
}

// OrderSession is what a valid order JWT opens.
type OrderSession struct {
	Shop  *ent.Shop
	Order *ent.Order
}

// AuthenticateOrder checks a storefront JWT against the shop and order named in the path. Only
// HS256 signed with that shop's key, unexpired, for that very order, is accepted.
func (s *Service) AuthenticateOrder(ctx context.Context, shopIdentifier, publicOrderID, token string) (*OrderSession, error) {
	if token == "" {
		return nil, ErrUnauthorized
	}
	sh, err := s.shopByIdentifier(ctx, shopIdentifier)
	if err != nil {
		if ent.IsNotFound(err) {
			return nil, ErrUnauthorized
		}
		return nil, err
	}
	var c orderClaims
	_, err = jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return sh.JwtKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(s.clock), jwt.WithExpirationRequired())
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			// The message is the one storefronts built on the public frontend library look for to
			// show their session-expired page.
			return nil, &Error{Status: ErrUnauthorized.Status, Code: CodeUnauthorized, Type: "auth.token_expired", Message: "Expired JWT",
				Details: map[string]any{"hint": "the order token has expired: resume the order for a new one"}}
		}
		return nil, ErrUnauthorized
	}
	if c.Shop != sh.Identifier || c.Payload.PublicOrderID != publicOrderID || c.AuthType != "V2_API" {
		return nil, ErrUnauthorized
	}
	o, err := s.db.Read.Order.Query().Where(order.ShopID(sh.ID), order.PublicOrderID(publicOrderID)).Only(ctx)
	if err != nil {
		if ent.IsNotFound(err) {
			return nil, ErrUnauthorized
		}
		return nil, err
	}
	return &OrderSession{Shop: sh, Order: o}, nil
}

// AuthenticateOrderToken opens the order a bare JWT names, for callers (GraphQL) that have no
// shop or order in a path. The shop and order are read from the unverified claims only to find
// the key; the token is then checked exactly as AuthenticateOrder checks it.
func (s *Service) AuthenticateOrderToken(ctx context.Context, token string) (*OrderSession, error) {
	var c orderClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &c); err != nil || c.Shop == "" || c.Payload.PublicOrderID == "" {
		return nil, ErrUnauthorized
	}
	return s.AuthenticateOrder(ctx, c.Shop, c.Payload.PublicOrderID, token)
}
