package main

// analysis is what the last profiling found bounds the figures; it is kept with the harness so
// that a new run of `make bench` writes it again, and is to be revised with the code.
const analysis = `## What bounds the figures (profiled with CHECKOUT_PPROF_ADDR, strace, top, PostgreSQL's statement log)

- **The machine.** Sessions run on different 2-core machines, and they differ by about two to
  one: the same binary (commit 5b4996f) made 307 SQLite checkouts/s on an Intel Xeon and 146 on
  an AMD EPYC. On the AMD EPYC of this report, one binary measured minutes apart differs by up
  to half: commit 14e3ff2 made 259 and 377 SQLite checkouts/s, and 147 and 239 on PostgreSQL,
  within ten minutes; full runs of this report's code made 251 and the figure above on SQLite.
  So a change was judged by statement counts, the writer's held time per checkout (a temporary
  trace), and old and new binaries alternated, never by one run. Compare figures only within
  one report.
- **SQLite: its one writer.** SQLite lets one transaction write at a time, and at 32 shoppers
  that writer is busy most of the time (the "write transactions open" column) while requests
  wait about 6 ms for it. Per checkout it is held about 2.3 ms, traced: init 0.30 ms, five
  one-statement changes 0.11 ms each, adding the payment 0.35, process_order's reservation
  0.62 and its finish 0.47 (from about 3 ms at this report's start: the finish was 0.7 to 0.9
  alone). That bounds it near 430 checkouts/s with the writer never idle; at 32 shoppers the
  writer's holder also shares the two cores with 31 other requests, and throughput falls from 8
  to 32 to 128 shoppers. Of the CPU under write transactions, the pure-Go SQLite engine and its
  system calls are over half. This report's changes to it:
  - The orders table's indexes no longer hold a time that a shopper's change moves: updated_at
    left the (status, updated_at) index, which only recovery used (it finds its few processing
    orders by the status leading the other index), and last_activity_at is recorded to the
    minute, so a checkout's field changes write the order's row and no index entry (on
    PostgreSQL they are heap-only updates). Alternated quick runs: 347 to 390 checkouts/s
    against 332 to 344. With both indexes dropped outright, in a slow phase: 332 to 363 against
    231 to 261.
  - process_order's finish writes the order and its payments as the reservation left them (two
    conditional updates, no reads), and settles the granted ledger entries in the same
    transaction instead of one of its own.
  - Checkpoints run on a connection of their own every 200 ms, off the writer (an earlier
    report: about 305 checkouts/s against 240).
  - A larger page cache for the writer (64 MB) measured no better, on a fresh database and on
    one grown by the 1 and 8 shopper levels.
- **PostgreSQL: the two cores, shared.** Nothing is idle at 32 shoppers. perf, at 152
  checkouts/s: checkoutd 53% of the two cores (over half of it in the kernel: loopback TCP),
  PostgreSQL's backends 36%, the load generator 9%. PostgreSQL's commit rate is not the bound:
  an fdatasync takes 120 µs here (pg_test_fsync: 8,300 a second) and a checkout now commits 9
  times. Over its Unix socket instead of loopback TCP it measured the same (185, 204, 192 against
  178, 202, 189). A checkout is now 28 round trips, BEGIN and COMMIT included (PostgreSQL's
  statement log, one shopper), from 32 at this report's start and about 230 when first
  measured: init 4; customer, addresses, shipping line and taxes 1 each; the shipping lines'
  read 1; adding the payment 5; process_order's reservation 8 and its finish 6.
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
  the kept children and answered with the payment it created; no order index on a time a change
  moves, the shopper's activity recorded to the minute; process_order's finish written as the
  reservation left it, the ledger's settle in it; a change's new row worked out instead of read
  back;
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
  The machine's slow phases reach them too: in the run before this report's, the same code
  drained 677 deliveries/s on PostgreSQL (and read state 7,304 times a second), against 423 (and
  5,222) here, where its checkouts meanwhile ran at 107/s against 246 on SQLite.
- **Next, in checkoutd's hands**: adding a payment on the kept order (a conditional bump of
  the version instead of the locking read); public ids that grow with time, so that inserts into
  their unique indexes go to the last page, not to a random one of a table that grows; have
  ent's code generator write each hot query's column list once (an ent template) instead of
  building it on every call. process_order's reservation still reads the order's children
  although they are kept: it decides what is authorized, so it reads its rows. Outside them:
  the load generator on another machine.

`
