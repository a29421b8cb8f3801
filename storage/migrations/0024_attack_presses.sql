-- A saved roll's button attacks once per turn of the fight (#30): the press's claim on a turn,
-- by the message the button is on and the saved roll it rolls. A double tap, a second client
-- or a press after a restart in the same turn finds its claim taken and is refused; the next
-- turn (the fight's step moved on) makes a new claim. Written in the attack's transaction, so
-- a refused attack leaves none. The claims go with their fight.

CREATE TABLE attack_presses (
    fight_id   INTEGER NOT NULL REFERENCES fights (id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    saved_id   INTEGER NOT NULL,
    step       INTEGER NOT NULL,
    PRIMARY KEY (fight_id, message_id, saved_id, step)
) WITHOUT ROWID;
