{
  "targets": [
    {
      "target_name": "release_memory",
      "sources": ["native/release-memory.c"]
    }
  ]
}
