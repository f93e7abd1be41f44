# PostgreSQL 15 with sroar_pg, for production: the official postgres:15-bookworm image
# with only the extension's files added. It behaves as that image does (its
# entrypoint, its POSTGRES_PASSWORD rule: no password, no start; its PGDATA volume)
# and holds no toolchain.
#
#   docker build -t sroar_pg .
#   docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=secret sroar_pg
#   psql -h localhost -U postgres -c 'SELECT rb_cardinality(rb_build(ARRAY[1,2,3]))'
#
# The extension is created in POSTGRES_DB on first start; in other databases run
# CREATE EXTENSION sroar_pg (a database owner can: the extension is trusted).

# The build: the README's own recipe (scripts/setup.sh), then the installed files
# gathered by scripts/package.sh.
FROM rust:1.95-bookworm AS build
WORKDIR /opt/sroar_pg
COPY . .
RUN bash scripts/setup.sh --install-only \
    && bash scripts/package.sh --out /out --no-wheel

# The image: the official one, plus the library, the control file and the SQL scripts
# where its PostgreSQL looks for them (the same Debian layout as the build's).
FROM postgres:15-bookworm
COPY --from=build /out/lib/ /usr/lib/postgresql/15/lib/
COPY --from=build /out/extension/ /usr/share/postgresql/15/extension/
COPY --from=build /opt/sroar_pg/scripts/docker-initdb.sql /docker-entrypoint-initdb.d/10-sroar_pg.sql
