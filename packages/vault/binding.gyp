{
  "targets": [
    {
      "target_name": "release_memory",
      "sources": ["native/release-memory.c"]
    },
    {
      "target_name": "blob_codec",
      "sources": [
        "native/blob-codec.c",
        "native/codec.c",
        "native/jobs.c",
        "native/list-directory.c",
        "native/read-files.c",
        "native/restore-span.c",
        "native/zstd/common/entropy_common.c",
        "native/zstd/common/error_private.c",
        "native/zstd/common/fse_decompress.c",
        "native/zstd/common/xxhash.c",
        "native/zstd/common/zstd_common.c",
        "native/zstd/compress/fse_compress.c",
        "native/zstd/compress/hist.c",
        "native/zstd/compress/huf_compress.c",
        "native/zstd/compress/zstd_compress.c",
        "native/zstd/compress/zstd_compress_literals.c",
        "native/zstd/compress/zstd_compress_sequences.c",
        "native/zstd/compress/zstd_compress_superblock.c",
        "native/zstd/compress/zstd_double_fast.c",
        "native/zstd/compress/zstd_fast.c",
        "native/zstd/compress/zstd_lazy.c",
        "native/zstd/compress/zstd_ldm.c",
        "native/zstd/compress/zstd_opt.c",
        "native/zstd/compress/zstd_preSplit.c",
        "native/zstd/decompress/huf_decompress.c",
        "native/zstd/decompress/huf_decompress_amd64.S",
        "native/zstd/decompress/zstd_ddict.c",
        "native/zstd/decompress/zstd_decompress_block.c",
        "native/zstd/decompress/zstd_decompress.c"
      ],
      "include_dirs": ["native/zstd"],
      "defines": ["XXH_NAMESPACE=BOGWAN_ZSTD_", "ZSTD_NO_TRACE", "ZSTDLIB_VISIBLE=", "ZSTDERRORLIB_VISIBLE="],
      "cflags": ["-O2", "-fvisibility=hidden", "-std=gnu11"],
      "conditions": [
        ["OS=='win'", { "sources!": ["native/zstd/decompress/huf_decompress_amd64.S"] }]
      ]
    }
  ]
}
