// Package platformserver is a reference platform connector server for checkoutd: the side a
// store platform implements so checkoutd can manage its customers, addresses and orders and
// page through its products and orders (docs/platform-connector.md).
//
// [Server] is the whole connector as an http.Handler that keeps its state in memory. It checks
// the X-HMAC signature of every call exactly as checkoutd makes it ([Sign], [Verify]), signs its
// answer to the verification call, and honours Idempotency-Key on order create. Its test
// switches ([Server.FailNext], [Server.DropNextAnswer], [Server.SetDelay]) and accessors
// ([Server.Calls], [Server.Customers], [Server.Orders]) let checkoutd's own tests use it as a
// real platform. [Notifier] sends the event notifications a platform sends back to checkoutd.
package platformserver
