# Multi-stage: build a release binary with the Swift standard library linked in,
# run it on a slim Debian with only the C libraries it loads (zlib1g, libbrotli1 and libssl3,
# which libcurl4 pulls in too, are named because Courier loads them itself: the first two for
# `bytes: { raw: true }`, libssl3's libcrypto for the `jwt` predicate's RS256 and ES256).
FROM swift:6.3-bookworm AS build
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends libcurl4-openssl-dev libyaml-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN swift build -c release --static-swift-stdlib --product courier \
 && cp "$(swift build -c release --show-bin-path)/courier" /usr/local/bin/courier

FROM debian:bookworm-slim
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends libcurl4 libyaml-0-2 zlib1g libbrotli1 libssl3 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/courier /usr/local/bin/courier
ENTRYPOINT ["courier"]
