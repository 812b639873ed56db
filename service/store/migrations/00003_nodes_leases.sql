-- Several nodes on one database: each node's advertised gRPC address, and which node owns
-- each running match, until when. A node renews its leases every few seconds; a lease not
-- renewed expires and another node takes the match, rebuilding it from its log.
-- +goose Up
CREATE TABLE nodes (
	id TEXT PRIMARY KEY,
	addr TEXT NOT NULL,
	seen_ns INTEGER NOT NULL
);
CREATE TABLE leases (
	match_id TEXT PRIMARY KEY,
	node_id TEXT NOT NULL,
	expires_ns INTEGER NOT NULL
);
CREATE INDEX leases_node ON leases(node_id);

-- +goose Down
DROP TABLE leases;
DROP TABLE nodes;
