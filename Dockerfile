# svc container image: a static binary on scratch, running as uid 10001 with its data in /data.
#
#   docker build -t svc .
#   docker run -d --name svc -p 8080:8080 -v svc-data:/data --stop-timeout 30 \
#     -e SVC_PUBLIC_URL=https://assistant.example.com svc
#
# This needs the golang image from a registry. Without registry access, build the binary on
# the host and use deploy/docker/Dockerfile.runtime (deploy/docker/build-local does it).
ARG GO_VERSION=1.26

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The pure-Go SQLite driver (modernc.org/sqlite) lets the binary be static. .git is in the
# context so the binary carries its VCS revision (svc version, the start-up build-info line).
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/svc ./cmd/svc \
 && deploy/docker/rootfs /ctx /out/svc /etc/ssl/certs/ca-certificates.crt

# From here on: the body of deploy/docker/Dockerfile.runtime, with COPY --from=build.
FROM scratch
COPY --from=build /ctx/rootfs/ /
COPY --from=build --chown=10001:10001 /ctx/volume/ /
USER 10001:10001
WORKDIR /data
ENV SVC_DATA=/data \
    SVC_ADDR=0.0.0.0:8080
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/usr/local/bin/svc", "health", "--timeout", "4s"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/svc"]
CMD ["serve"]
