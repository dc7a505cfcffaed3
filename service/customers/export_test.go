package customers

import (
	"context"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
)

// ApplySaved applies a Customer Saved at once, as its queued job does.
func (s *Service) ApplySaved(ctx context.Context, sh *ent.Shop, in CustomerInput) error {
	if err := in.check(); err != nil {
		return err
	}
	return s.applySaved(ctx, sh.ID, in)
}

// ApplyDeleted applies a Customer Deleted at once, as its queued job does.
func (s *Service) ApplyDeleted(ctx context.Context, sh *ent.Shop, in DeletedInput) error {
	return s.applyDeleted(ctx, sh.ID, in)
}

// LimitNameCandidates lowers the most names a search reads for one word to n.
func (s *Service) LimitNameCandidates(n int) { s.maxNameCandidates = n }

// AddNames adds first names to the search's lexicon, as customers having had them would.
func (s *Service) AddNames(ctx context.Context, names []string) error {
	for len(names) > 0 {
		n := min(len(names), 500)
		ins := sql.Dialect(s.p.DB.Dialect).Insert("customer_names").Columns("kind", "name")
		for _, name := range names[:n] {
			ins.Values(firstName, name)
		}
		query, args := ins.Query()
		if _, err := s.p.DB.Client.ExecContext(ctx, query, args...); err != nil {
			return err
		}
		names = names[n:]
	}
	return nil
}

// FirstNamesAlike are the lexicon's first names spelt like word.
func (s *Service) FirstNamesAlike(ctx context.Context, word string) ([]string, error) {
	alike, err := s.namesAlike(ctx, []string{strings.ToLower(word)})
	if err != nil {
		return nil, err
	}
	return alike[0].first, nil
}

// LexiconGaps is how many ids the search's lexicon asks for again below its last.
func (s *Service) LexiconGaps() int {
	s.names.mu.RLock()
	defer s.names.mu.RUnlock()
	return len(s.names.gaps)
}
