-- A campaign's list of attribute names (what autocomplete offers and typos are checked
-- against), and a crafting project's recipe: the attribute, skill and target number each roll
-- uses, and the quality it aims for.
--
-- campaigns.attribute_names: a JSON array of names, or NULL for WIRE's own.
-- craft_projects.attribute, skill: names from the crafter's sheet (NULL: given with each roll);
-- target: the TN of each roll (NULL: given with each roll); goal: the quality aimed for (NULL:
-- none).

ALTER TABLE campaigns ADD COLUMN attribute_names TEXT CHECK (attribute_names IS NULL
    OR json_valid(attribute_names));
ALTER TABLE craft_projects ADD COLUMN attribute TEXT;
ALTER TABLE craft_projects ADD COLUMN skill TEXT;
ALTER TABLE craft_projects ADD COLUMN target INTEGER;
ALTER TABLE craft_projects ADD COLUMN goal INTEGER;
