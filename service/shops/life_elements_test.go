package shops_test

import (
	"slices"
	"testing"

	"github.com/checkoutd/checkoutd/service/shops"
)

func TestEveryLifeElementLocationIsOnExactlyOneRegionOfTheCheckout(t *testing.T) {
	var placed []string
	for _, r := range shops.LifeElementRegions {
		placed = append(placed, r.Locations...)
	}
	slices.Sort(placed)
	want := slices.Clone(shops.LifeElementLocations)
	slices.Sort(want)
	if !slices.Equal(placed, want) {
		t.Fatalf("the regions place %v, the locations are %v", placed, want)
	}
}
