package shops

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/Boostport/address"
)

// Province is one subdivision a shopper can pick.
type Province struct {
	IsoCode          string `json:"iso_code"`
	Name             string `json:"name"`
	ValidForShipping bool   `json:"valid_for_shipping"`
	ValidForBilling  bool   `json:"valid_for_billing"`
}

// Country is one country with the address rules the checkout form needs.
type Country struct {
	IsoCode          string     `json:"iso_code"`
	Name             string     `json:"name"`
	ShowProvince     bool       `json:"show_province"`
	ProvinceLabel    string     `json:"province_label"`
	ShowPostalCode   bool       `json:"show_postal_code"`
	Provinces        []Province `json:"provinces"`
	ValidForShipping bool       `json:"valid_for_shipping"`
	ValidForBilling  bool       `json:"valid_for_billing"`
}

var (
	countriesOnce sync.Once
	countries     []Country
)

// Countries is the ISO 3166 country and subdivision data, from the address library's CLDR and
// Google address data, built once.
func Countries() []Country {
	countriesOnce.Do(func() {
		for _, c := range address.ListCountries("en") {
			data := address.GetCountry(c.Code)
			areas := data.AdministrativeAreas["en"]
			if areas == nil {
				areas = data.AdministrativeAreas[data.DefaultLanguage]
			}
			provinces := make([]Province, 0, len(areas))
			for _, a := range areas {
				provinces = append(provinces, Province{IsoCode: a.ID, Name: a.Name, ValidForShipping: true, ValidForBilling: true})
			}
			countries = append(countries, Country{
				IsoCode: c.Code, Name: c.Name, ShowProvince: len(provinces) > 0,
				ProvinceLabel:    data.AdministrativeAreaNameType.String(),
				ShowPostalCode:   slices.Contains(data.Allowed, address.PostCode),
				Provinces:        provinces,
				ValidForShipping: true, ValidForBilling: true,
			})
		}
	})
	return countries
}

// CountriesJSON is Countries encoded once: every init and resume answers it, and encoding it
// anew was most of the cost of those answers.
var CountriesJSON = sync.OnceValue(func() json.RawMessage {
	b, err := json.Marshal(Countries())
	if err != nil {
		panic(fmt.Sprintf("service: encoding the country list: %v", err))
	}
	return b
})

// FindCountry returns the country of an ISO 3166 code.
func FindCountry(code string) (Country, bool) {
	for _, c := range Countries() {
		if c.IsoCode == code {
			return c, true
		}
	}
	return Country{}, false
}
