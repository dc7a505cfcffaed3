package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// The customers of the customers figure: a deterministic pseudo-random population (a fixed
// seed), with names drawn as a real customer base has them: a few common names shared by many
// customers and a long tail of rarer ones (made of syllables), so that the trigram indexes hold
// trigrams shared by many rows and by few, as they would in a shop.

const customerSeed = 20261126

// firstNames and lastNames are common names, most common first; a name's weight falls with
// its rank (nameWeight).
var firstNames = strings.Fields(`James Mary John Patricia Robert Jennifer Michael Linda David Elizabeth William
Barbara Richard Susan Joseph Jessica Thomas Sarah Christopher Karen Charles Lisa Daniel Nancy Matthew Betty
Anthony Sandra Mark Margaret Donald Ashley Steven Kimberly Andrew Emily Paul Donna Joshua Michelle Kenneth
Carol Kevin Amanda Brian Melissa George Deborah Timothy Stephanie Ronald Dorothy Jason Rebecca Edward Sharon
Jeffrey Laura Ryan Cynthia Jacob Amy Gary Kathleen Nicholas Angela Eric Shirley Jonathan Brenda Stephen Emma
Larry Anna Justin Pamela Scott Nicole Brandon Samantha Benjamin Katherine Samuel Christine Gregory Helen
Alexander Debra Patrick Rachel Frank Carolyn Raymond Janet Jack Maria Dennis Catherine Jerry Heather Tyler
Diane Aaron Olivia Jose Julie Adam Joyce Nathan Victoria Henry Ruth Zachary Virginia Douglas Lauren Peter
Kelly Kyle Christina Noah Joan Ethan Evelyn Jeremy Judith Walter Andrea Christian Hannah Keith Megan Roger
Cheryl Terry Jacqueline Austin Martha Sean Madison Gerald Teresa Carl Gloria Harold Sara Dylan Janice Arthur
Ann Lawrence Kathryn Jordan Abigail Jesse Sophia Bryan Frances Billy Jean Bruce Alice Gabriel Judy Joe Isabella
Logan Julia Alan Grace Juan Amber Albert Denise Willie Danielle Elijah Marilyn Wayne Beverly Randy Charlotte
Vincent Natalie Mason Theresa Roy Diana Ralph Brittany Bobby Doris Russell Kayla Bradley Alexis Philip Lori
Eugene Marie Johnny Jon Johanna Jonas`)

var lastNames = strings.Fields(`Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez
Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris
Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams
Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards
Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed
Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price
Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell
Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton
Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens
Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen
Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason
Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice
Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer Hawkins
Arnold Pierce Vazquez Hansen Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong Hudson
Carroll Lane Riley Andrews Alvarado Ray Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras
Willis Carpenter Lawrence Sandoval Smyth Smithson Smithers`)

// Syllables of the tail's names.
var (
	onsets = strings.Fields("b br c ch d dr f g gr h j k kl l m n p pr r s sch sh st t th tr v w z")
	vowels = strings.Fields("a e i o u a e i o ai ea ie ou")
	codas  = strings.Fields("n r l s t m nd rt ck ll ss n r")
	ends   = strings.Fields("son sen ski ez ov er man ton ley ford berg stein ini elli ard")
)

var emailDomains = strings.Fields("gmail.com yahoo.com outlook.com hotmail.com icloud.com aol.com proton.me example.com mail.com fastmail.com")

// nameWeight is the weight of the name of rank r (0 the most common): the offset flattens the
// head, so that the most common surname is about one customer in a hundred, as Smith is.
func nameWeight(r int) float64 { return 1 / float64(r+10) }

// picker draws names of a list by weight.
type picker struct {
	names []string
	cum   []float64
}

func newPicker(names []string) picker {
	p := picker{names: names, cum: make([]float64, len(names))}
	total := 0.0
	for i := range names {
		total += nameWeight(i)
		p.cum[i] = total
	}
	for i := range p.cum {
		p.cum[i] /= total
	}
	return p
}

func (p picker) pick(r *rand.Rand) string {
	i, _ := slices.BinarySearch(p.cum, r.Float64())
	return p.names[min(i, len(p.names)-1)]
}

func tailName(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(2) {
		b.WriteString(onsets[r.IntN(len(onsets))])
		b.WriteString(vowels[r.IntN(len(vowels))])
		if r.IntN(2) == 0 {
			b.WriteString(codas[r.IntN(len(codas))])
		}
	}
	if r.IntN(3) == 0 {
		b.WriteString(ends[r.IntN(len(ends))])
	}
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// benchCustomer is one row of the customers table, in the columns ent/schema/customer.go
// defines (the database gives the id).
type benchCustomer struct {
	PlatformID                        string
	FirstName, LastName, Email, Phone string
	PlatformCreatedAt                 time.Time
	PlatformUpdatedAt                 time.Time
	PlatformDeletedAt                 *time.Time
	CreatedAt, UpdatedAt              time.Time
}

// customerGen makes the population: row i of n is the same on every run.
type customerGen struct {
	r           *rand.Rand
	first, last picker
	n           int
	start, now  time.Time
	// known are the known customers' rows.
	known map[int]int
}

// knownCustomers are customers the search must find, whatever the population around them: the
// figure's fuzzy search ("John Smiht") must list them.
var knownCustomers = []struct{ first, last, email string }{
	{"John", "Smith", "john.smith@example.com"},
	{"John", "Smith", "jsmith1970@gmail.com"},
	{"John", "Smith", "smith.john@outlook.com"},
}

// customerRows is the rows of a population of n customers the list shows: n, and one deleted
// on the platform for every hundred.
func customerRows(n int) int { return n + n/100 }

func deletedCustomer(i int) bool { return i%101 == 100 }

// knownPlatformID is the platform id of known customer k.
func knownPlatformID(k int) string { return fmt.Sprintf("bench-known-%d", k) }

func newCustomerGen(n int, now time.Time) *customerGen {
	g := &customerGen{r: rand.New(rand.NewPCG(customerSeed, uint64(n))), first: newPicker(firstNames), last: newPicker(lastNames),
		n: n, start: now.AddDate(-3, 0, 0), now: now, known: map[int]int{}}
	for k := range knownCustomers {
		row := k*n/len(knownCustomers) + n/(2*len(knownCustomers))
		if deletedCustomer(row) {
			row++
		}
		g.known[row] = k
	}
	return g
}

// next is customer i (called for i = 0, 1, ... in order).
func (g *customerGen) next(i int) benchCustomer {
	r := g.r
	first, last := g.first.pick(r), g.last.pick(r)
	if r.IntN(10) == 0 {
		first = tailName(r)
	}
	if r.IntN(2) == 0 {
		last = tailName(r)
	}
	if r.IntN(40) == 0 {
		last += "-" + g.last.pick(r)
	}
	local := strings.ToLower(first)
	switch r.IntN(5) {
	case 0:
		local += "." + strings.ToLower(last)
	case 1:
		local = strings.ToLower(first[:1] + last)
	case 2:
		local += strings.ToLower(last) + fmt.Sprint(r.IntN(100))
	case 3:
		local += "_" + strings.ToLower(last[:1]) + fmt.Sprint(1950+r.IntN(55))
	default:
		local = strings.ToLower(last) + "." + strings.ToLower(first)
	}
	c := benchCustomer{PlatformID: fmt.Sprintf("bench-%07d", i), FirstName: first, LastName: last,
		Email: fmt.Sprintf("%s@%s", local, emailDomains[r.IntN(len(emailDomains))])}
	// Phones as the platform keeps them: E.164, and a fifth without one.
	if r.IntN(5) != 0 {
		c.Phone = fmt.Sprintf("+1%03d%03d%04d", 201+r.IntN(780), 200+r.IntN(800), r.IntN(10000))
	}
	// Customers joined over three years, in id order; each changed last some time since.
	span := g.now.Sub(g.start)
	c.CreatedAt = g.start.Add(time.Duration(float64(span) * float64(i) / float64(g.n))).Truncate(time.Microsecond)
	c.UpdatedAt = c.CreatedAt.Add(time.Duration(r.Float64() * float64(g.now.Sub(c.CreatedAt)))).Truncate(time.Microsecond)
	c.PlatformCreatedAt = c.CreatedAt.Add(-time.Duration(r.IntN(3600)) * time.Second)
	c.PlatformUpdatedAt = c.UpdatedAt.Add(-time.Duration(r.IntN(60)) * time.Second)
	// One in a hundred and one was deleted on the platform: hidden from the list.
	if deletedCustomer(i) {
		d := c.PlatformUpdatedAt
		c.PlatformDeletedAt = &d
	}
	// The known customers are spread through the ids.
	if k, ok := g.known[i]; ok {
		kc := knownCustomers[k]
		c.PlatformID, c.FirstName, c.LastName, c.Email = knownPlatformID(k), kc.first, kc.last, kc.email
	}
	return c
}
