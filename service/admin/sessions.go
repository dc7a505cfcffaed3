package admin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/adminsession"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Console sessions are rows, not process memory: every checkoutd process on the database knows
// them, so the console needs no sticky routing, and a restart signs nobody out.
const (
	// IdleTimeout ends a session nobody used for that long.
	IdleTimeout = 30 * time.Minute
	// MaxSessionAge ends a session that long after sign-in, used or not.
	MaxSessionAge = 12 * time.Hour
	// lastSeenStep is how stale a session's recorded last use may get before a page writes it
	// again, so that browsing the console does not write on every page. An idle session may so
	// end up to this much before IdleTimeout after its last use, never after.
	lastSeenStep = time.Minute
)

// Session is a live console session: one admin signed in to one shop.
type Session struct {
	// Shop is read with the session, not through the shop cache: the console shows the
	// settings it has just changed, whichever process serves the next page.
	Shop *ent.Shop
	// CSRF is the token every form of the session carries.
	CSRF string
	// Flash is the one-time message kept for the next page (TakeFlash shows it once).
	Flash string
	id    int
}

// sessionHash is what the table keeps of a session's token: its SHA-256, so that reading the
// table signs nobody in.
func sessionHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// StartSession signs an admin of sh in under a fresh token, so that no token known before sign-in
// survives it, and answers the token (the cookie's value). The session the browser held before
// (replaced; "" for none) ends, and so do the expired sessions of every shop.
func (s *Service) StartSession(ctx context.Context, sh *ent.Shop, replaced string) (token string, err error) {
	token = platform.RandomHex(32)
	now := s.p.Clock()
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		gone := adminsession.Or(adminsession.LastSeenAtLT(now.Add(-IdleTimeout)), adminsession.CreatedAtLT(now.Add(-MaxSessionAge)))
		if replaced != "" {
			gone = adminsession.Or(gone, adminsession.TokenHash(sessionHash(replaced)))
		}
		if _, err := tx.AdminSession.Delete().Where(gone).Exec(ctx); err != nil {
			return err
		}
		return tx.AdminSession.Create().SetShopID(sh.ID).SetTokenHash(sessionHash(token)).
			SetCsrfToken(platform.RandomHex(32)).SetCreatedAt(now).SetLastSeenAt(now).Exec(ctx)
	})
	return token, err
}

// Session answers the live session of token with its shop, and records its use (at most once
// per lastSeenStep); nil when there is none: never issued, ended, or expired (then deleted).
func (s *Service) Session(ctx context.Context, token string) (*Session, error) {
	if token == "" {
		return nil, nil
	}
	row, err := s.p.DB.Read.AdminSession.Query().Where(adminsession.TokenHash(sessionHash(token))).WithShop().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	now := s.p.Clock()
	if now.Sub(row.LastSeenAt) > IdleTimeout || now.Sub(row.CreatedAt) > MaxSessionAge {
		_, err := s.p.DB.Client.AdminSession.Delete().Where(adminsession.ID(row.ID)).Exec(ctx)
		return nil, err
	}
	if now.Sub(row.LastSeenAt) >= lastSeenStep {
		if err := s.p.DB.Client.AdminSession.Update().Where(adminsession.ID(row.ID)).SetLastSeenAt(now).Exec(ctx); err != nil {
			return nil, err
		}
	}
	return &Session{Shop: row.Edges.Shop, CSRF: row.CsrfToken, Flash: row.Flash, id: row.ID}, nil
}

// EndSession signs the session of token out (whether or not it is still live).
func (s *Service) EndSession(ctx context.Context, token string) error {
	_, err := s.p.DB.Client.AdminSession.Delete().Where(adminsession.TokenHash(sessionHash(token))).Exec(ctx)
	return err
}

// SetFlash keeps msg for the session's next page.
func (s *Service) SetFlash(ctx context.Context, sess *Session, msg string) error {
	return s.p.DB.Client.AdminSession.Update().Where(adminsession.ID(sess.id)).SetFlash(msg).Exec(ctx)
}

// TakeFlash answers the message the session keeps for its next page, once: of two pages asking
// at the same time, one shows it. Without a message it writes nothing.
func (s *Service) TakeFlash(ctx context.Context, sess *Session) (string, error) {
	if sess.Flash == "" {
		return "", nil
	}
	n, err := s.p.DB.Client.AdminSession.Update().Where(adminsession.ID(sess.id), adminsession.Flash(sess.Flash)).SetFlash("").Save(ctx)
	if err != nil || n == 0 {
		return "", err
	}
	return sess.Flash, nil
}
