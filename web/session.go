package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"sync"
	"time"
)

// Sessions live in memory: a console session is a convenience over the access token the admin
// signs in with, not data worth a table, and a restart (which drops them all) only asks every
// admin to sign in again. Several checkoutd processes behind one address need sticky routing
// for the console.
const (
	sessionCookie = "checkoutd_admin"
	// signinCookie carries the CSRF token of the sign-in form, before any session exists.
	signinCookie = "checkoutd_admin_signin"
	// IdleTimeout ends a session nobody used for that long.
	IdleTimeout = 30 * time.Minute
	// MaxSessionAge ends a session that long after sign-in, used or not.
	MaxSessionAge = 12 * time.Hour
)

// session is one signed-in admin of one shop.
type session struct {
	id             string
	shopIdentifier string
	csrf           string
	created        time.Time
	lastSeen       time.Time
	// flash is a one-time message shown by the next page (after a redirect).
	flash string
}

type sessionStore struct {
	mu       sync.Mutex
	sessions map[string]*session
	now      func() time.Time
}

func newSessionStore(now func() time.Time) *sessionStore {
	return &sessionStore{sessions: map[string]*session{}, now: now}
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func (st *sessionStore) expired(s *session, now time.Time) bool {
	return now.Sub(s.lastSeen) > IdleTimeout || now.Sub(s.created) > MaxSessionAge
}

// create starts a session under a fresh id, so that no id known before sign-in survives it,
// and drops the expired ones.
func (st *sessionStore) create(shopIdentifier string) *session {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.now()
	for id, s := range st.sessions {
		if st.expired(s, now) {
			delete(st.sessions, id)
		}
	}
	s := &session{id: randomToken(), shopIdentifier: shopIdentifier, csrf: randomToken(), created: now, lastSeen: now}
	st.sessions[s.id] = s
	return s
}

// get returns the live session of id and marks it used; an expired one is dropped.
func (st *sessionStore) get(id string) *session {
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.sessions[id]
	if !ok {
		return nil
	}
	now := st.now()
	if st.expired(s, now) {
		delete(st.sessions, id)
		return nil
	}
	s.lastSeen = now
	return s
}

func (st *sessionStore) delete(id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.sessions, id)
}

func (st *sessionStore) setFlash(s *session, msg string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s.flash = msg
}

func (st *sessionStore) takeFlash(s *session) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	msg := s.flash
	s.flash = ""
	return msg
}

// secureRequest reports whether the browser reached us over TLS, directly or through a proxy
// that terminates it.
func secureRequest(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}

func setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/admin", MaxAge: maxAge,
		HttpOnly: true, Secure: secureRequest(r), SameSite: http.SameSiteStrictMode})
}

func tokensEqual(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
