# Mailroom: one executable. Build stage compiles dist/mailroom with Bun; the runtime stage holds only the binary.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json bunfig.toml ./
COPY src ./src
COPY scripts ./scripts
RUN npx bun scripts/build.ts

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/mailroom --create-home mailroom
COPY --from=build /src/dist/mailroom /usr/local/bin/mailroom
USER mailroom
WORKDIR /var/lib/mailroom
# A non-root process cannot bind ports below 1024: the relay listens on 2587/2465 inside the container; publish
# them as 587/465 (docker run -p 587:2587 -p 465:2465 -p 3000:3000 …).
ENV MAILROOM_DATA_DIR=/var/lib/mailroom \
    MAILROOM_HTTP_HOST=0.0.0.0 \
    MAILROOM_SMTP_HOST=0.0.0.0 \
    MAILROOM_SMTP_SUBMISSION_PORT=2587 \
    MAILROOM_SMTP_SMTPS_PORT=2465
VOLUME ["/var/lib/mailroom"]
EXPOSE 3000 2587 2465
HEALTHCHECK --interval=30s --timeout=3s CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/3000"]
ENTRYPOINT ["/usr/local/bin/mailroom"]
CMD ["serve"]
