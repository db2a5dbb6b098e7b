#include "CCompression.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - The declarations used, as the libraries' stable ABIs define them

// zlib.h's z_stream (unchanged since zlib 1.0). inflateInit2_ is given sizeof(z_stream) and
// the major version, and refuses (Z_VERSION_ERROR) a library whose layout differs.
typedef struct {
    const uint8_t *next_in;
    unsigned int avail_in;
    unsigned long total_in;
    uint8_t *next_out;
    unsigned int avail_out;
    unsigned long total_out;
    const char *msg;
    void *state;
    void *zalloc;
    void *zfree;
    void *opaque;
    int data_type;
    unsigned long adler;
    unsigned long reserved;
} courier_z_stream;

enum { Z_OK = 0, Z_STREAM_END = 1, Z_NEED_DICT = 2, Z_BUF_ERROR = -5, Z_NO_FLUSH = 0 };

// brotli/decode.h: the state is opaque; results and error codes are ints.
enum { BROTLI_RESULT_ERROR = 0, BROTLI_RESULT_SUCCESS = 1, BROTLI_RESULT_NEEDS_MORE_INPUT = 2,
       BROTLI_RESULT_NEEDS_MORE_OUTPUT = 3 };

static struct {
    int (*inflateInit2_)(courier_z_stream *, int, const char *, int);
    int (*inflate)(courier_z_stream *, int);
    int (*inflateEnd)(courier_z_stream *);
    int (*inflateReset)(courier_z_stream *);
} zlib;

static struct {
    void *(*create)(void *, void *, void *);
    void (*destroy)(void *);
    int (*decompress_stream)(void *, size_t *, const uint8_t **, size_t *, uint8_t **, size_t *);
    int (*error_code)(const void *);
    const char *(*error_string)(int);
} brotli;

// MARK: - Loading

typedef struct {
    pthread_once_t once;
    int status;
    char error[512];
} load_state;

static load_state zlib_load = {PTHREAD_ONCE_INIT, -1, ""};
static load_state brotli_load = {PTHREAD_ONCE_INIT, -1, ""};

#define RESOLVE(table, field, symbol, state, name)                                               \
    do {                                                                                         \
        *(void **)(&table.field) = dlsym(library, #symbol);                                      \
        if (table.field == NULL) {                                                               \
            snprintf(state.error, sizeof state.error, "%s has no symbol %s", name, #symbol);     \
            return;                                                                              \
        }                                                                                        \
    } while (0)

static void *open_library(const char *name, const char *package, load_state *state) {
    void *library = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(state->error, sizeof state->error, "cannot load %s (%s); install it, e.g. 'apt-get install %s'", name,
                 dlerror(), package);
    }
    return library;
}

static void load_zlib(void) {
    void *library = open_library("libz.so.1", "zlib1g", &zlib_load);
    if (library == NULL) return;
    RESOLVE(zlib, inflateInit2_, inflateInit2_, zlib_load, "libz.so.1");
    RESOLVE(zlib, inflate, inflate, zlib_load, "libz.so.1");
    RESOLVE(zlib, inflateEnd, inflateEnd, zlib_load, "libz.so.1");
    RESOLVE(zlib, inflateReset, inflateReset, zlib_load, "libz.so.1");
    zlib_load.status = 0;
}

static void load_brotli(void) {
    void *library = open_library("libbrotlidec.so.1", "libbrotli1", &brotli_load);
    if (library == NULL) return;
    RESOLVE(brotli, create, BrotliDecoderCreateInstance, brotli_load, "libbrotlidec.so.1");
    RESOLVE(brotli, destroy, BrotliDecoderDestroyInstance, brotli_load, "libbrotlidec.so.1");
    RESOLVE(brotli, decompress_stream, BrotliDecoderDecompressStream, brotli_load, "libbrotlidec.so.1");
    RESOLVE(brotli, error_code, BrotliDecoderGetErrorCode, brotli_load, "libbrotlidec.so.1");
    RESOLVE(brotli, error_string, BrotliDecoderErrorString, brotli_load, "libbrotlidec.so.1");
    brotli_load.status = 0;
}

int courier_coding_load(courier_coding coding, char *error, size_t error_size) {
    load_state *state = coding == courier_coding_brotli ? &brotli_load : &zlib_load;
    pthread_once(&state->once, coding == courier_coding_brotli ? load_brotli : load_zlib);
    if (state->status != 0 && error != NULL && error_size > 0) snprintf(error, error_size, "%s", state->error);
    return state->status;
}

// MARK: - Decoding

struct courier_decoder {
    courier_coding coding;
    courier_z_stream z;
    void *brotli;
    char error[256];
};

courier_decoder *courier_decoder_new(courier_coding coding) {
    courier_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->coding = coding;
    if (coding == courier_coding_brotli) {
        decoder->brotli = brotli.create(NULL, NULL, NULL);
        if (decoder->brotli == NULL) {
            free(decoder);
            return NULL;
        }
        return decoder;
    }
    // 15 bits of window; +16: gzip only; negative: raw deflate; plain: the zlib wrapper.
    int bits = coding == courier_coding_gzip ? 15 + 16 : coding == courier_coding_raw_deflate ? -15 : 15;
    if (zlib.inflateInit2_(&decoder->z, bits, "1.2.11", (int)sizeof(courier_z_stream)) != Z_OK) {
        free(decoder);
        return NULL;
    }
    return decoder;
}

static courier_decode_status run_zlib(courier_decoder *d, const uint8_t **next_in, size_t *avail_in, uint8_t **next_out,
                                      size_t *avail_out) {
    // avail_in/avail_out are 32-bit in zlib: hand over at most 1 GiB at a time.
    const size_t most = (size_t)1 << 30;
    for (;;) {
        unsigned int in = (unsigned int)(*avail_in < most ? *avail_in : most);
        unsigned int out = (unsigned int)(*avail_out < most ? *avail_out : most);
        d->z.next_in = *next_in;
        d->z.avail_in = in;
        d->z.next_out = *next_out;
        d->z.avail_out = out;
        int code = zlib.inflate(&d->z, Z_NO_FLUSH);
        size_t taken = in - d->z.avail_in, made = out - d->z.avail_out;
        *next_in += taken;
        *avail_in -= taken;
        *next_out += made;
        *avail_out -= made;
        if (code == Z_STREAM_END) {
            // gzip allows members one after another (RFC 1952 §2.2): go on with the next.
            if (d->coding == courier_coding_gzip && *avail_in >= 2 && (*next_in)[0] == 0x1f && (*next_in)[1] == 0x8b) {
                zlib.inflateReset(&d->z);
                continue;
            }
            return courier_decode_done;
        }
        if (code == Z_NEED_DICT) {
            snprintf(d->error, sizeof d->error, "the stream needs a preset dictionary");
            return courier_decode_error;
        }
        if (code != Z_OK && code != Z_BUF_ERROR) {
            snprintf(d->error, sizeof d->error, "%s", d->z.msg != NULL ? d->z.msg : "corrupt data");
            return courier_decode_error;
        }
        if (*avail_out == 0) return courier_decode_needs_output;
        if (*avail_in == 0) return courier_decode_needs_input;
    }
}

static courier_decode_status run_brotli(courier_decoder *d, const uint8_t **next_in, size_t *avail_in,
                                        uint8_t **next_out, size_t *avail_out) {
    int result = brotli.decompress_stream(d->brotli, avail_in, next_in, avail_out, next_out, NULL);
    switch (result) {
    case BROTLI_RESULT_SUCCESS: return courier_decode_done;
    case BROTLI_RESULT_NEEDS_MORE_INPUT: return courier_decode_needs_input;
    case BROTLI_RESULT_NEEDS_MORE_OUTPUT: return courier_decode_needs_output;
    default: {
        const char *text = brotli.error_string(brotli.error_code(d->brotli));
        // The library's names ("_ERROR_FORMAT_PADDING_1"), made readable in Swift.
        snprintf(d->error, sizeof d->error, "%s", text != NULL ? text : "corrupt data");
        return courier_decode_error;
    }
    }
}

courier_decode_status courier_decoder_run(courier_decoder *decoder, const uint8_t **next_in, size_t *avail_in,
                                          uint8_t **next_out, size_t *avail_out) {
    if (decoder->coding == courier_coding_brotli) return run_brotli(decoder, next_in, avail_in, next_out, avail_out);
    return run_zlib(decoder, next_in, avail_in, next_out, avail_out);
}

const char *courier_decoder_error(const courier_decoder *decoder) { return decoder->error; }

void courier_decoder_free(courier_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->coding == courier_coding_brotli) {
        brotli.destroy(decoder->brotli);
    } else {
        zlib.inflateEnd(&decoder->z);
    }
    free(decoder);
}
