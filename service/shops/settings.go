package shops

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
)

// Settings are the shop's checkout settings its admin changes.
type Settings struct {
	AbandonedCartEmails bool `json:"abandoned_cart_emails"`
	GiftCardsEnabled    bool `json:"gift_cards_enabled"`
	// RequireBusinessName and RequirePhoneNumber make business_name and phone_number required
	// on an order's shipping and billing addresses.
	RequireBusinessName bool `json:"require_business_name"`
	RequirePhoneNumber  bool `json:"require_phone_number"`
	// VerifyPaymentsOnly: process_order only verifies each card payment and leaves it
	// awaitingPreAuth; Capture Specific Payment then authorizes and charges it.
	VerifyPaymentsOnly bool `json:"verify_payments_only"`
}

// SettingsOf are the shop's settings.
func SettingsOf(sh *ent.Shop) Settings {
	return Settings{AbandonedCartEmails: sh.AbandonedCartEmails, GiftCardsEnabled: sh.GiftCardsEnabled,
		RequireBusinessName: sh.RequireBusinessName, RequirePhoneNumber: sh.RequirePhoneNumber,
		VerifyPaymentsOnly: sh.VerifyPaymentsOnly}
}

// SettingsInput changes the settings it names; the others stay as they are.
type SettingsInput struct {
	AbandonedCartEmails *bool `json:"abandoned_cart_emails"`
	GiftCardsEnabled    *bool `json:"gift_cards_enabled"`
	RequireBusinessName *bool `json:"require_business_name"`
	RequirePhoneNumber  *bool `json:"require_phone_number"`
	VerifyPaymentsOnly  *bool `json:"verify_payments_only"`
}

// UpdateSettings changes the settings in, in one statement. Orders check addresses against the
// settings as they are when the address is set: an address set before stays.
func (s *Service) UpdateSettings(ctx context.Context, sh *ent.Shop, in SettingsInput) (*ent.Shop, error) {
	return s.p.DB.Client.Shop.UpdateOneID(sh.ID).SetNillableAbandonedCartEmails(in.AbandonedCartEmails).
		SetNillableGiftCardsEnabled(in.GiftCardsEnabled).SetNillableRequireBusinessName(in.RequireBusinessName).
		SetNillableRequirePhoneNumber(in.RequirePhoneNumber).SetNillableVerifyPaymentsOnly(in.VerifyPaymentsOnly).Save(ctx)
}
