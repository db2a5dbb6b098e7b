#!/usr/bin/env bash
# Generate the TLS fixtures for Courier's integration tests with the openssl CLI.
#
#   Tests/Servers/make_certs.sh OUTDIR
#
# Prints nothing on success (exit 0); on failure prints openssl's output to stderr (exit 1).
# Idempotent: when OUTDIR already holds a complete set (marker file .complete), it does nothing.
# Safe to run concurrently for the same OUTDIR (flock). EC P-256 keys: the whole set takes well
# under a second.
#
# Files (all PEM unless noted):
#   ca.pem ca.key                     test CA ("Courier Test CA")
#   server.pem server.key             CN=localhost, SAN IP:127.0.0.1, DNS:localhost (signed by ca)
#   server-chain.pem                  server.pem followed by ca.pem
#   server.pin                        sha256//BASE64 pin of server.key's public key (tls.pinned_key)
#   wrong-name.pem wrong-name.key     CN=wrong.example, SAN DNS:wrong.example (signed by ca)
#   other-ca.pem other-ca.key         an unrelated CA ("Courier Other CA")
#   other-server.pem other-server.key right names (127.0.0.1/localhost) but signed by other-ca
#   client.pem client.key             client cert CN=courier-client (signed by ca), unencrypted key
#   client-encrypted.key              the same key, encrypted (AES-256) with password "secret"
#   client.p12                        PKCS#12 of client cert+key (+ca), password "secret" (AES/PBKDF2)
#   client-legacy.p12                 the same with legacy RC2/3DES encryption (`-legacy`); only
#                                     when this openssl supports it
#   other-client.pem other-client.key client cert CN=other-client signed by other-ca (rejected)
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
OUT=$1
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

exec 9>"$OUT/.lock"
flock 9

[ -f "$OUT/.complete" ] && exit 0

WORK=$(mktemp -d "$OUT/.work.XXXXXX")
LOG="$WORK/openssl.log"
trap 'rm -rf "$WORK"' EXIT
fail() {
    echo "make_certs.sh: $1" >&2
    cat "$LOG" >&2 2>/dev/null || true
    exit 1
}
run() { "$@" >>"$LOG" 2>&1 || fail "failed: $*"; }

DAYS=3650
cd "$WORK"

newkey() { run openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

# A CA: self-signed, CA:TRUE.
make_ca() { # name CN
    newkey "$1.key"
    cat >"$1.ext" <<EOF
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
EOF
    run openssl req -x509 -new -key "$1.key" -sha256 -days "$DAYS" -subj "/O=Courier Tests/CN=$2" \
        -out "$1.pem" -extensions v3_ca -config <(printf '[req]\ndistinguished_name=dn\n[dn]\n[v3_ca]\n'; cat "$1.ext")
}

# A leaf signed by a CA.
make_leaf() { # name CN ca extendedKeyUsage subjectAltName-or-empty
    newkey "$1.key"
    {
        echo "basicConstraints = critical, CA:FALSE"
        echo "keyUsage = critical, digitalSignature, keyEncipherment"
        echo "extendedKeyUsage = $4"
        echo "subjectKeyIdentifier = hash"
        echo "authorityKeyIdentifier = keyid, issuer"
        [ -n "$5" ] && echo "subjectAltName = $5"
    } >"$1.ext"
    run openssl req -new -key "$1.key" -subj "/O=Courier Tests/CN=$2" -out "$1.csr"
    run openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -sha256 \
        -days "$DAYS" -extfile "$1.ext" -out "$1.pem"
}

make_ca ca "Courier Test CA"
make_ca other-ca "Courier Other CA"
make_leaf server localhost ca serverAuth "IP:127.0.0.1, DNS:localhost"
make_leaf wrong-name wrong.example ca serverAuth "DNS:wrong.example"
make_leaf other-server localhost other-ca serverAuth "IP:127.0.0.1, DNS:localhost"
make_leaf client courier-client ca clientAuth ""
make_leaf other-client other-client other-ca clientAuth ""

cat server.pem ca.pem >server-chain.pem
openssl pkey -in server.key -pubout -outform DER 2>>"$LOG" | openssl dgst -sha256 -binary 2>>"$LOG" \
    | { printf 'sha256//'; base64 -w0; echo; } >server.pin || fail "pin"

run openssl pkey -in client.key -aes256 -passout pass:secret -out client-encrypted.key
run openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -name courier-client \
    -passout pass:secret -out client.p12
# Legacy RC2-40 / 3DES PKCS#12 (what old tools produce); OpenSSL 3 needs its legacy provider.
if openssl pkcs12 -help 2>&1 | grep -q -- '-legacy'; then
    openssl pkcs12 -export -legacy -in client.pem -inkey client.key -certfile ca.pem -name courier-client \
        -passout pass:secret -out client-legacy.p12 >>"$LOG" 2>&1 || rm -f client-legacy.p12
else  # OpenSSL 1.1 and older: RC2-40 is already the default
    openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -name courier-client \
        -passout pass:secret -out client-legacy.p12 >>"$LOG" 2>&1 || rm -f client-legacy.p12
fi

chmod 644 ./*.pem ./*.key ./*.p12 server.pin
for f in ca other-ca server wrong-name other-server client other-client; do
    mv -f "$f.pem" "$f.key" "$OUT/"
done
mv -f server-chain.pem server.pin client-encrypted.key client.p12 "$OUT/"
[ -f client-legacy.p12 ] && mv -f client-legacy.p12 "$OUT/"
touch "$OUT/.complete"
