package model

import (
	"github.com/99designs/gqlgen/graphql"

	"github.com/checkoutd/checkoutd/service/problem"
)

// MarshalID writes an object's id as GraphQL's ID, a string of its number.
func MarshalID(id int) graphql.Marshaler { return graphql.MarshalIntID(id) }

// UnmarshalID reads an object's id. Every id is a number, so one that is not names no object:
// it is answered like the id of another shop's object, and the parser's message (which names Go
// internals) never reaches the client.
func UnmarshalID(v any) (int, error) {
	id, err := graphql.UnmarshalIntID(v)
	if err != nil {
		return 0, &problem.Error{Kind: problem.NotFound, Code: problem.CodeNotFound, Type: "node.not_found", Message: "no object with that id"}
	}
	return id, nil
}
