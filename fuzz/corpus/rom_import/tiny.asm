        ORG     100H
START:  LD      A,5
        LD      B,A
        ADD     A,B
        RET
