-- A small demo, loaded by scripts/setup.sh into the database sroar_demo.
CREATE EXTENSION sroar_pg;
SELECT sroar_version();
