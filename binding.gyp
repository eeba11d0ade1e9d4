{
  "targets": [
    {
      "target_name": "udp_receiver",
      "sources": [
        "native/udp_receiver.c"
      ],
      "conditions": [
        [
          "OS!='linux'",
          {
            "type": "none",
            "sources!": [
              "native/udp_receiver.c"
            ]
          }
        ]
      ],
      "cflags": [
        "-O2",
        "-std=gnu11",
        "-Wall"
      ],
      "libraries": [
        "-lpthread"
      ]
    },
    {
      "target_name": "pipe_reader",
      "sources": [
        "native/pipe_reader.c"
      ],
      "conditions": [
        [
          "OS!='linux'",
          {
            "type": "none",
            "sources!": [
              "native/pipe_reader.c"
            ]
          }
        ]
      ],
      "cflags": [
        "-O2",
        "-std=gnu11",
        "-Wall"
      ],
      "libraries": [
        "-lpthread"
      ]
    }
  ]
}
