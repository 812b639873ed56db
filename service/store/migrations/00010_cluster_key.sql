-- The cluster's key (store.ClusterKey): the secret the nodes sharing this database sign the
-- calls they relay to each other with (service/caller), so that a node trusts a relay as a
-- node's only when it comes from a holder of the database, not from any process on a node's
-- host. One row, drawn by the first node that asks.
-- +goose Up
CREATE TABLE cluster_key (
	id INTEGER PRIMARY KEY,
	secret BLOB NOT NULL
);

-- +goose Down
DROP TABLE cluster_key;
