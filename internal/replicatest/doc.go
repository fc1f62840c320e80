// Package replicatest runs several `svc serve` processes on one PostgreSQL database and one
// Redis and checks that they behave as one service (issue 16): shared limits, one budget,
// one owner e-mail, key rotation seen at once, and a replica killed mid-answer leaving no
// stuck hold and no charge without its answer. It holds tests only; they skip unless
// PostgreSQL and Redis answer (SVC_REQUIRE_POSTGRES=1 and SVC_REQUIRE_REDIS=1 fail instead).
package replicatest
