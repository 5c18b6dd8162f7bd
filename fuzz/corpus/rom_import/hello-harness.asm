        ORG     8000H

; ADD2: SUM := OPA + OPB (8 bits, carry dropped). Uses A and B.
ADD2:   LD      A,(OPA)
        LD      B,A
        LD      A,(OPB)
        ADD     A,B
        LD      (SUM),A
        RET

; FILL: write COUNT (1 to 16) bytes 1, 2, 3, ... into BUFFER. Uses A, B and HL.
FILL:   LD      HL,BUFFER
        LD      A,(COUNT)
        LD      B,A
        XOR     A
FILL1:  INC     A
        LD      (HL),A
        INC     HL
        DJNZ    FILL1
        RET

OPA:    DB      0
OPB:    DB      0
SUM:    DB      0
COUNT:  DB      8
BUFFER: DS      16
