package main

// analysis is what the last profiling found bounds the figures; it is kept with the harness so
// that a new run of `make bench` writes it again, and is to be revised with the code.
const analysis = `## What bounds the figures (profiled with CHECKOUT_PPROF_ADDR, Go's execution tracer, perf, top)

- **SQLite: its one writer.** SQLite lets one transaction write at a time, and at 32 shoppers
  that writer is busy nearly all the time: the "write transactions open" column (the share of
  the time a write transaction holds it) reads about 0.87, and Go's execution tracer shows about
  20 requests at any moment waiting to begin one. A checkout is 9 write transactions and one
  autocommitted ledger update; what holds the writer is running their statements (the pure-Go
  SQLite engine, ent building and scanning them) and, for about 15% of its time, the commit's
  write to the WAL (synchronous NORMAL: no fsync per commit). This is SQLite's write rate for
  this workload, and it decides whether a run clears 300 checkouts/s (this machine's runs land
  between about 295 and 315): every read that could leave the write transactions has (gateways,
  the catalog, the answer's view), and what remains is the writes and the reads they depend on. The rest of the machine is
  not saturated meanwhile (about 15% idle; checkoutd about 4.4 ms of CPU per checkout, the load
  generator 0.8 ms).
- **PostgreSQL: the two cores, shared.** Nothing is idle at 32 shoppers: about 90% for
  checkoutd, 95% for PostgreSQL's backends and 13% for the load generator. A checkout costs about
  5.4 ms of CPU in checkoutd and 5.6 ms in PostgreSQL: 56 statements in 9 transactions, 74 round
  trips with their BEGINs and COMMITs. perf finds no hot spot in PostgreSQL (no function above
  4%: the network, context switches, index maintenance, the WAL), and no session waits on a lock. 200 checkouts/s on this
  machine would need a checkout to cost about 85% of what it does.
- **State reads.** GET /refresh is the JWT check and three statements (order, line items,
  payments). A quarter of checkoutd's CPU on it is ent building each query's SQL text, column by
  column, on every call.
- **Done so far** (from 35 and 25 checkouts/s at 32 shoppers when first measured):
  a read-only pool beside the SQLite writer, used by every read outside a transaction;
  prepared statements per connection on both databases (on PostgreSQL each statement is one
  round trip instead of two); shops, zones and rates kept in memory for two seconds; a change
  written as one UPDATE with its version bump, its new row worked out instead of read back;
  storefront sessions that do not read the order (the change's locked read is enough); updates
  by id instead of ent's UpdateOne, which reads each row back; init's catalog reads and pricing
  outside its transaction, and process_order's and payment's gateways read before theirs; the
  subscriptions of process_order's two events read once; the 160 KB country list of init
  encoded once and written without a copy; a finished SQLite write transaction yielding to the
  next one waiting; Go's collector at GOGC=400 (it had spent a tenth of the CPU); a load
  generator on fasthttp's client, which takes half the CPU net/http's did from the cores it
  shares with the server. On PostgreSQL one checkout went from 131 statements, BEGIN and COMMIT
  included, to 74, and from about 230 round trips to 74.
- **Webhooks.** Each delivery is a few reads, one write transaction (a conditional UPDATE that
  claims the attempt, and the attempt's row) and the queue's fetch and completion. The queue hands
  out jobs one batch per fetch, a batch filling only free workers, so delivery goes no faster
  than workers / 20 ms; with 32 (SQLite) and 64 (PostgreSQL) workers a backlog drains at the
  rates above, and at 8 shoppers' checkouts callbacks arrive well within a second of the commit.
- **Next, in checkoutd's hands**: have ent's code generator write each hot query's column list
  once (an ent template) instead of building it on every call, which is about a quarter of the
  CPU of a read and of the writer's time; run a change's reads before SQLite's write transaction
  and keep only a version-checked write inside it; and measure with the load generator on
  another machine.

`
