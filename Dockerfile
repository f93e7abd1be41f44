# PostgreSQL with sroar_pg, for production: the official postgres:NN-bookworm image
# with only the extension's Debian package added (scripts/package.sh). It behaves as
# that image does (its entrypoint, its POSTGRES_PASSWORD rule: no password, no start;
# its PGDATA volume) and holds no toolchain.
#
#   docker build -t sroar_pg .                                  PostgreSQL 15
#   docker build --build-arg PG_MAJOR=18 -t sroar_pg:18 .       16, 17 or 18 likewise
#   docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=secret sroar_pg
#   psql -h localhost -U postgres -c 'SELECT rb_cardinality(rb_build(ARRAY[1,2,3]))'
#
# The extension is created in POSTGRES_DB on first start; in other databases run
# CREATE EXTENSION sroar_pg (a database owner can: the extension is trusted).
ARG PG_MAJOR=15

# The build: the README's own recipe (scripts/setup.sh) for that major, then its
# Debian package (scripts/package.sh), built on Debian 12 as the image is.
FROM rust:1.95-bookworm AS build
ARG PG_MAJOR
WORKDIR /opt/sroar_pg
COPY . .
RUN bash scripts/setup.sh --install-only --pg "$PG_MAJOR" \
    && bash scripts/package.sh --out /out --no-wheel --pg "$PG_MAJOR"

# The image: the official one, plus the package, which puts the library, the control
# file and the SQL scripts where its PostgreSQL looks (Debian's layout for that major).
FROM postgres:${PG_MAJOR}-bookworm
ARG PG_MAJOR
COPY --from=build /out/postgresql-${PG_MAJOR}-sroar-pg_*_amd64.deb /tmp/
RUN dpkg -i /tmp/postgresql-${PG_MAJOR}-sroar-pg_*_amd64.deb && rm /tmp/*.deb
COPY --from=build /opt/sroar_pg/scripts/docker-initdb.sql /docker-entrypoint-initdb.d/10-sroar_pg.sql
