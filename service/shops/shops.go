package shops

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/shop"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

var shopIdentifierPattern = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$`)

// CreateShopInput is what a new shop needs.
type CreateShopInput struct {
	Identifier string
	Name       string
	Domain     string
	Currency   string
}

// CreatedShop is a new shop and its first access token, shown once.
type CreatedShop struct {
	Shop        *ent.Shop
	AccessToken string
}

// CreateShop creates a shop and its first access token.
func (s *Service) CreateShop(ctx context.Context, in CreateShopInput) (*CreatedShop, error) {
	if !shopIdentifierPattern.MatchString(in.Identifier) {
		return nil, problem.Validation("shop.invalid_identifier", "shop identifier must be 1-64 letters, digits, '.', '_' or '-'", map[string]any{"field": "identifier"})
	}
	if input.TooLong(in.Name, input.MaxShortText) || input.TooLong(in.Domain, input.MaxShortText) {
		return nil, problem.Validation("shop.invalid_shop_data", fmt.Sprintf("shop name and domain are at most %d characters", input.MaxShortText), map[string]any{"field": "name"})
	}
	currency := strings.ToUpper(in.Currency)
	if currency == "" {
		currency = "USD"
	}
	if err := input.Currency(currency); err != nil {
		return nil, err
	}
	name := in.Name
	if name == "" {
		name = in.Identifier
	}
	var out CreatedShop
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		exists, err := tx.Shop.Query().Where(shop.Identifier(in.Identifier)).Exist(ctx)
		if err != nil {
			return err
		}
		if exists {
			return &problem.Error{Kind: problem.Conflict, Code: problem.CodeConflict, Type: "shop.already_exists", Message: "a shop with identifier " + in.Identifier + " already exists"}
		}
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		sh, err := tx.Shop.Create().SetIdentifier(in.Identifier).SetName(name).SetDomain(in.Domain).
			SetCurrency(currency).SetJwtKey(key).Save(ctx)
		if err != nil {
			return err
		}
		var zone *ent.ShippingZone
		if err := createZone(ctx, tx.Client(), sh.ID, defaultShippingZone, &zone); err != nil {
			return err
		}
		token, err := issueToken(ctx, tx.Client(), sh.ID)
		if err != nil {
			return err
		}
		out = CreatedShop{Shop: sh, AccessToken: token}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// IssueAccessToken gives the shop another access token, shown once.
func (s *Service) IssueAccessToken(ctx context.Context, identifier string) (string, error) {
	sh, err := s.p.DB.Read.Shop.Query().Where(shop.Identifier(identifier)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", problem.NotFoundError("shop.not_found", "no shop with identifier "+identifier)
	}
	if err != nil {
		return "", err
	}
	return issueToken(ctx, s.p.DB.Client, sh.ID)
}

// ShopByIdentifier returns the shop, or a not-found error.
func (s *Service) ShopByIdentifier(ctx context.Context, identifier string) (*ent.Shop, error) {
	sh, err := s.p.DB.Read.Shop.Query().Where(shop.Identifier(identifier)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, problem.NotFoundError("shop.not_found", "no shop with identifier "+identifier)
	}
	return sh, err
}

func issueToken(ctx context.Context, c *ent.Client, shopID int) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	token := "ckd_" + base64.RawURLEncoding.EncodeToString(raw)
	if err := c.AccessToken.Create().SetShopID(shopID).SetTokenHash(hashToken(token)).Exec(ctx); err != nil {
		return "", err
	}
	return token, nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ShopForToken returns the shop an access token belongs to.
func (s *Service) ShopForToken(ctx context.Context, token string) (*ent.Shop, error) {
	if token == "" {
		return nil, problem.ErrUnauthorized
	}
	sh, err := s.shopByTokenHash(ctx, hashToken(token))
	if ent.IsNotFound(err) {
		return nil, problem.ErrUnauthorized
	}
	return sh, err
}

// AuthenticateShop checks that token belongs to the shop named identifier. A wrong token and an
// unknown shop fail alike, so the answer reveals nothing about other shops.
func (s *Service) AuthenticateShop(ctx context.Context, identifier, token string) (*ent.Shop, error) {
	sh, err := s.ShopForToken(ctx, token)
	if err != nil {
		return nil, err
	}
	if sh.Identifier != identifier {
		return nil, problem.ErrUnauthorized
	}
	return sh, nil
}
