-- A saved roll's button attacks once per turn of the fight: the PostgreSQL twin of the SQLite
-- migration *_attack_presses.sql (read it for why); the same columns in the same order.

CREATE TABLE attack_presses (
    fight_id   BIGINT NOT NULL REFERENCES fights (id) ON DELETE CASCADE,
    message_id BIGINT NOT NULL,
    saved_id   BIGINT NOT NULL,
    step       BIGINT NOT NULL,
    PRIMARY KEY (fight_id, message_id, saved_id, step)
);
