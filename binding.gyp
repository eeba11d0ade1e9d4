{
  "targets": [
    {
      "target_name": "udp_receiver",
      "sources": ["native/udp_receiver.c"],
      "conditions": [["OS!='linux'", { "type": "none", "sources!": ["native/udp_receiver.c"] }]],
      "cflags": ["-O2", "-std=gnu11", "-Wall"],
      "libraries": ["-lpthread"]
    }
  ]
}
