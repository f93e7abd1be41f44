-- Run once by the official postgres image's entrypoint when it creates the cluster
-- (Dockerfile): sroar_pg in POSTGRES_DB.
CREATE EXTENSION IF NOT EXISTS sroar_pg;
