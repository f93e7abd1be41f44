# PostgreSQL 15 with sroar_pg installed, built by the same script the README uses
# (scripts/setup.sh), so there is no second recipe to drift.
#
#   docker build -t sroar_pg .
#   docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=secret sroar_pg
#   psql -h localhost -U postgres -c 'CREATE EXTENSION sroar_pg'
#
# Without POSTGRES_PASSWORD the server trusts every connection: for local trials only.
FROM rust:1.95-bookworm

WORKDIR /opt/sroar_pg
COPY . .
RUN bash scripts/setup.sh --install-only \
    && rm -rf target /usr/local/cargo/registry

EXPOSE 5432
VOLUME /var/lib/sroar_pg
CMD ["bash", "scripts/setup.sh", "--serve", "/var/lib/sroar_pg/data"]
