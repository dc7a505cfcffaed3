// Package docs holds the OpenAPI document of the REST API, docs/openapi.yaml, embedded so that
// the binary serves the very file the tests validate against.
package docs

import _ "embed"

// OpenAPI is docs/openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte
