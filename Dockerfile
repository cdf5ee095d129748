# syntax=docker/dockerfile:1
# Build: docker build -t botifarra .
# Run:   docker run -p 8080:8080 botifarra          (in-memory store)
#        docker run -e REDIS_URL=redis://redis:6379 … (shared Redis)

FROM rust:1.95-bookworm AS build
WORKDIR /src
# Dependencies first, so source edits do not rebuild them.
COPY Cargo.toml Cargo.lock ./
# Empty stand-ins for the targets the manifest names (benches are not built
# here), so that no source edit invalidates this layer.
RUN mkdir src benches && echo 'fn main() {}' > src/main.rs && touch src/lib.rs \
        benches/legal_moves.rs benches/http_load.rs \
    && cargo build --release --locked --bin botifarra \
    && rm -rf src
# The web client's files are embedded in the binary (include_bytes!).
COPY web ./web
COPY src ./src
RUN touch src/main.rs src/lib.rs && cargo build --release --locked --bin botifarra

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin botifarra
COPY --from=build /src/target/release/botifarra /usr/local/bin/botifarra
USER 10001:10001
ENV BIND=0.0.0.0:8080 \
    LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/botifarra"]
CMD ["serve"]
