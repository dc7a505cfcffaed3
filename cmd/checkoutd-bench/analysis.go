package main

// analysis is what the last profiling found bounds the figures; it is kept with the harness so
// that a new run of `make bench` writes it again, and is to be revised with the code.
const analysis = `## What bounds the figures (profiled with CHECKOUT_PPROF_ADDR, strace, top, PostgreSQL's statement log)

- **The machine.** Sessions run on different 2-core machines, and they differ by about two to
  one: the same binary (commit 5b4996f) made 307 SQLite checkouts/s on an Intel Xeon and 146 on
  an AMD EPYC. On the AMD EPYC of this report, runs of one binary a minute apart differ by up
  to a third (218 and 331 SQLite checkouts/s; 97 and 150 on PostgreSQL), so a change was judged
  by statement counts, the writer's busy time per checkout, and runs of the old and new binaries
  alternated several times, never by one run. Compare figures only within one report.
- **SQLite: its one writer, and now mostly SQLite's own work.** SQLite lets one transaction
  write at a time, and at 32 shoppers that writer is busy about 85% of the time (the "write
  transactions open" column). Per checkout it is held for init, five one-statement changes,
  adding the payment, process_order's two transactions and the ledger's settle. Of the CPU under
  write transactions, the pure-Go SQLite engine and its system calls (about 8,500 WAL page
  writes and 3,600 file locks a second under load) are over half; Go's allocation, ent and
  database/sql the rest. Two changes of this report moved most of the writer's time:
  - SQLite checkpointed its write-ahead log inside the commit that crossed 1,000 pages, about
    12 times a second under load, holding the one writer connection while it copied pages and
    waited for two fsyncs. A checkpointer on a connection of its own now does it every 200 ms
    (PASSIVE: it neither waits for nor blocks the writer). In alternated runs: 305 median (218
    to 331) checkouts/s against about 240 (212 to 256) before, and 323 with no checkpoints at
    all, which is what it can at most give.
  - A change of the order's own row is one conditional UPDATE on the order this process kept
    from its last change (below), so the writer no longer holds the change's reads.
- **PostgreSQL: the two cores, shared.** Nothing is idle at 32 shoppers: about 80% of a core
  for checkoutd, 100% for PostgreSQL's 20 backends and 14% for the load generator (top, 151
  checkouts/s). That is about 5.4 ms of checkoutd's CPU, 6.6 ms of PostgreSQL's and 0.9 ms of
  the load generator's per checkout, a ceiling near 155 checkouts/s on two cores; 200/s needs
  the sum under 10 ms. PostgreSQL's commit rate is not the bound: an fdatasync takes 120 µs here
  (pg_test_fsync: 8,300 a second) and a checkout commits 10 times. A checkout is now 32 round
  trips, BEGIN and COMMIT included (PostgreSQL's statement log, one shopper), from 57 at this
  report's start and about 230 when first measured: init 4; customer, addresses, shipping line
  and taxes 1 each; the shipping lines' read 1; adding the payment 5; process_order 17.
  In checkoutd a fifth of the CPU is the system calls of loopback TCP (to PostgreSQL and from
  the load generator).
- **State reads.** GET /refresh is the JWT check and the order's row; its line items and
  payments come from memory when the order's last change was made by this process at the same
  version, else two more statements. A quarter of checkoutd's CPU on a read is ent building
  each query's SQL text, column by column, on every call.
- **Done so far** (from 35 and 25 checkouts/s at 32 shoppers when first measured):
  a read-only pool beside the SQLite writer, used by every read outside a transaction;
  SQLite's checkpoints off the writer; prepared statements per connection on both databases (on
  PostgreSQL each statement is one round trip instead of two); shops, their gateways, LiFE
  elements and webhook subscriptions, and zones and rates kept in memory for two seconds; an
  order's row, line items and payments kept with the order version they belong to, from init and
  every change; a change of the order's own row (customer, addresses, shipping line, taxes,
  discount codes) written as one UPDATE conditioned on the kept version and an open status,
  falling back to the locked transaction when the row has moved on; adding a payment priced from
  the kept children and answered with the payment it created; process_order reading the order's
  payments once in its last transaction; a change's new row worked out instead of read back;
  storefront sessions that do not read the order; updates by id instead of ent's UpdateOne,
  which reads each row back; an event's rows written in one statement per kind; init's catalog
  reads and pricing outside its transaction, and process_order's and payment's gateways read
  before theirs; the 160 KB country list of init encoded once and written without a copy; a
  finished SQLite write transaction yielding to the next one waiting; Go's collector at
  GOGC=400; a load generator on fasthttp's client.
- **Webhooks.** Each delivery is a few reads, one write transaction (a conditional UPDATE that
  claims the attempt, and the attempt's row) and the queue's fetch and completion. The queue hands
  out jobs one batch per fetch, a batch filling only free workers, so delivery goes no faster
  than workers / 20 ms; with 32 (SQLite) and 64 (PostgreSQL) workers a backlog drains at the
  rates above, and at 8 shoppers' checkouts callbacks arrive well within a second of the commit.
- **Next, in checkoutd's hands**: process_order is now half of a PostgreSQL checkout's
  statements (its reserve reads the order's children although they are kept: it moves money, so
  it reads its rows); have ent's code generator write each hot query's column list once (an ent
  template) instead of building it on every call. Outside them: PostgreSQL over its Unix socket
  rather than loopback TCP, and the load generator on another machine.

`
