package main

// analysis is what the last profiling found bounds the figures; it is kept with the harness so
// that a new run of `make bench` writes it again, and is to be revised with the code.
const analysis = `## What bounds the figures (profiled with CHECKOUT_PPROF_ADDR, Go's execution tracer, perf, top)

- **The machine.** Sessions run on different 2-core machines, and they differ by about two to
  one: the same binary (commit 5b4996f) made 307 SQLite checkouts/s on an Intel Xeon and 146 on
  the AMD EPYC of 2026-11-24, whose runs also vary by ±15% from one minute to the next. Compare
  figures only within one report; statement counts (below) do not depend on the machine.
- **SQLite: its one writer.** SQLite lets one transaction write at a time, and at 32 shoppers
  that writer is busy nearly all the time (the "write transactions open" column reads about
  0.87; Go's execution tracer shows about 20 requests waiting to begin one). A checkout is 9
  write transactions and one autocommitted ledger update; what holds the writer is running their
  statements (the pure-Go SQLite engine, ent building and scanning them) and, for about 15% of
  its time, the commit's write to the WAL (synchronous NORMAL: no fsync per commit). Every read
  that could leave the write transactions has; what remains is the writes and the reads they
  depend on.
- **PostgreSQL: the two cores, shared.** Nothing is idle at 32 shoppers: about 85% for
  checkoutd, 105% for PostgreSQL's backends and 12% for the load generator. perf finds no hot
  spot in PostgreSQL (no function above 4%: executor start-up, the network, index maintenance,
  the WAL) and no session waits on a lock; in checkoutd a fifth of the CPU is the write(2) of
  each statement to PostgreSQL over loopback TCP, and a tenth ent building SQL text. The cost
  of a checkout is its statements: 57 round trips, BEGIN and COMMIT included (PostgreSQL's
  statement log, one shopper), from 72 at this session's start. 200 checkouts/s would need
  about 60% of today's cost per checkout on this machine, and about 85% of what it cost on the
  Xeon.
- **State reads.** GET /refresh is the JWT check and the order's row; its line items and
  payments come from memory when the order's last change was made by this process at the same
  version, else two more statements. A quarter of checkoutd's CPU on a read is ent building
  each query's SQL text, column by column, on every call.
- **Done so far** (from 35 and 25 checkouts/s at 32 shoppers when first measured):
  a read-only pool beside the SQLite writer, used by every read outside a transaction;
  prepared statements per connection on both databases (on PostgreSQL each statement is one
  round trip instead of two); shops, their gateways, LiFE elements and webhook subscriptions,
  and zones and rates kept in memory for two seconds; an order's line items and payments kept
  with the order version they belong to, so that changes to the order's own fields and reads
  answer without reading them; a change written as one UPDATE with its version bump, its new
  row worked out instead of read back; storefront sessions that do not read the order; updates
  by id instead of ent's UpdateOne, which reads each row back; an event's rows written in one
  statement per kind; init's catalog reads and pricing outside its transaction, and
  process_order's and payment's gateways read before theirs; the 160 KB country list of init
  encoded once and written without a copy; a finished SQLite write transaction yielding to the
  next one waiting; Go's collector at GOGC=400; a load generator on fasthttp's client. On
  PostgreSQL one checkout went from about 230 round trips to 57.
- **Webhooks.** Each delivery is a few reads, one write transaction (a conditional UPDATE that
  claims the attempt, and the attempt's row) and the queue's fetch and completion. The queue hands
  out jobs one batch per fetch, a batch filling only free workers, so delivery goes no faster
  than workers / 20 ms; with 32 (SQLite) and 64 (PostgreSQL) workers a backlog drains at the
  rates above, and at 8 shoppers' checkouts callbacks arrive well within a second of the commit.
- **Next, in checkoutd's hands**: keep a new order's children from init too (its rows' times
  as the database keeps them), so that the first change does not read them; have ent's code
  generator write each hot query's column list once (an ent template) instead of building it on
  every call; run a change's reads before SQLite's write transaction and keep only a
  version-checked write inside it. Outside them: PostgreSQL over its Unix socket rather than
  loopback TCP, and the load generator on another machine.

`
