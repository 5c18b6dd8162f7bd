; asm-selftest.asm -- the assembler's self-test: every documented Z80 instruction form
; and every directive the assembler accepts. The bytes each line must produce are in
; asm-selftest.expected, written by hand from the opcode tables of the Zilog Z80 manual
; (tests/assembler.rs compares them). Not meant to be run.

CONST   EQU     12H
WORDV   EQU     1234H
PORT    =       0FEH
NEGD    EQU     -3
LATER   EQU     AFTER+1         ; forward reference through an EQU

        ORG     100H
ENTRY:
; ---- 8-bit loads ----
        LD      A,B
        LD      B,C
        LD      C,D
        LD      D,E
        LD      E,H
        LD      H,L
        LD      L,A
        LD      A,A
        LD      A,(HL)
        LD      B,(HL)
        LD      (HL),C
        LD      (HL),A
        LD      E,CONST
        LD      H,-1
        LD      (HL),'*'
        LD      A,(IX+5)
        LD      B,(IY-2)
        LD      (IX+NEGD),D
        LD      (IY+7FH),E
        LD      (IX),H
        LD      (IX+1),99
        LD      (IY-128),0FFH
        LD      A,(BC)
        LD      A,(DE)
        LD      A,(WORDV)
        LD      (BC),A
        LD      (DE),A
        LD      (WORDV+1),A
        LD      A,I
        LD      A,R
        LD      I,A
        LD      R,A
; ---- 16-bit loads ----
        LD      BC,WORDV
        LD      DE,-2
        LD      HL,ENTRY
        LD      SP,0
        LD      IX,WORDV
        LD      IY,ENTRY+2
        LD      HL,(WORDV)
        LD      BC,(WORDV)
        LD      DE,(WORDV)
        LD      SP,(WORDV)
        LD      IX,(WORDV)
        LD      IY,(WORDV)
        LD      (WORDV),HL
        LD      (WORDV),BC
        LD      (WORDV),DE
        LD      (WORDV),SP
        LD      (WORDV),IX
        LD      (WORDV),IY
        LD      SP,HL
        LD      SP,IX
        LD      SP,IY
        PUSH    BC
        PUSH    DE
        PUSH    HL
        PUSH    AF
        PUSH    IX
        PUSH    IY
        POP     BC
        POP     DE
        POP     HL
        POP     AF
        POP     IX
        POP     IY
; ---- exchange, block transfer, block search ----
        EX      DE,HL
        EX      AF,AF'          ; the quote is part of the register name
        EXX
        EX      (SP),HL
        EX      (SP),IX
        EX      (SP),IY
        LDI
        LDIR
        LDD
        LDDR
        CPI
        CPIR
        CPD
        CPDR
; ---- 8-bit arithmetic and logic ----
        ADD     A,C
        ADD     A,(HL)
        ADD     A,(IX+2)
        ADD     A,(IY-1)
        ADD     A,10H
        ADC     A,D
        ADC     A,(HL)
        ADC     A,(IX+3)
        ADC     A,1
        SUB     E
        SUB     (HL)
        SUB     (IY+4)
        SUB     2
        SBC     A,H
        SBC     A,(HL)
        SBC     A,(IX+5)
        SBC     A,3
        AND     L
        AND     (HL)
        AND     (IX+6)
        AND     0FH
        OR      A
        OR      (HL)
        OR      (IY+7)
        OR      80H
        XOR     B
        XOR     (HL)
        XOR     (IX+8)
        XOR     0FFH
        CP      C
        CP      (HL)
        CP      (IY+9)
        CP      'A'
        INC     A
        INC     (HL)
        INC     (IX+10)
        DEC     B
        DEC     (HL)
        DEC     (IY-10)
; ---- general purpose and CPU control ----
        DAA
        CPL
        NEG
        CCF
        SCF
        NOP
        HALT
        DI
        EI
        IM      0
        IM      1
        IM      2
; ---- 16-bit arithmetic ----
        ADD     HL,BC
        ADD     HL,DE
        ADD     HL,HL
        ADD     HL,SP
        ADC     HL,BC
        ADC     HL,DE
        ADC     HL,HL
        ADC     HL,SP
        SBC     HL,BC
        SBC     HL,DE
        SBC     HL,HL
        SBC     HL,SP
        ADD     IX,BC
        ADD     IX,DE
        ADD     IX,IX
        ADD     IX,SP
        ADD     IY,BC
        ADD     IY,DE
        ADD     IY,IY
        ADD     IY,SP
        INC     BC
        INC     DE
        INC     HL
        INC     SP
        INC     IX
        INC     IY
        DEC     BC
        DEC     DE
        DEC     HL
        DEC     SP
        DEC     IX
        DEC     IY
; ---- rotate and shift ----
        RLCA
        RLA
        RRCA
        RRA
        RLC     B
        RLC     (HL)
        RLC     (IX+1)
        RLC     (IY+2)
        RL      C
        RL      (HL)
        RL      (IX+3)
        RRC     D
        RRC     (IY+4)
        RR      E
        RR      (HL)
        SLA     H
        SLA     (IX+5)
        SRA     L
        SRA     (HL)
        SRL     A
        SRL     (IY+6)
        RLD
        RRD
; ---- bit set, reset and test ----
        BIT     0,B
        BIT     7,A
        BIT     3,(HL)
        BIT     2,(IX+NEGD)
        BIT     6,(IY+1)
        SET     1,C
        SET     5,(HL)
        SET     7,(IX+0)
        RES     4,D
        RES     0,(HL)
        RES     3,(IY+2)
; ---- jumps ----
        JP      ENTRY
        JP      NZ,ENTRY
        JP      Z,ENTRY
        JP      NC,ENTRY
        JP      C,ENTRY
        JP      PO,ENTRY
        JP      PE,ENTRY
        JP      P,ENTRY
        JP      M,ENTRY
        JP      (HL)
        JP      (IX)
        JP      (IY)
BACK:   JR      BACK
        JR      C,$+2
        JR      NC,FWD
        JR      Z,BACK
        JR      NZ,$-126        ; the farthest back
        DJNZ    BACK
FWD:    DJNZ    $+129           ; the farthest forward
; ---- calls and returns ----
        CALL    ENTRY
        CALL    NZ,ENTRY
        CALL    Z,ENTRY
        CALL    NC,ENTRY
        CALL    C,ENTRY
        CALL    PO,ENTRY
        CALL    PE,ENTRY
        CALL    P,ENTRY
        CALL    M,ENTRY
        RET
        RET     NZ
        RET     Z
        RET     NC
        RET     C
        RET     PO
        RET     PE
        RET     P
        RET     M
        RETI
        RETN
        RST     0
        RST     08H
        RST     10H
        RST     18H
        RST     20H
        RST     28H
        RST     30H
        RST     38H
; ---- input and output ----
        IN      A,(PORT)
        IN      B,(C)
        IN      C,(C)
        IN      D,(C)
        IN      E,(C)
        IN      H,(C)
        IN      L,(C)
        IN      A,(C)
        INI
        INIR
        IND
        INDR
        OUT     (PORT),A
        OUT     (C),B
        OUT     (C),C
        OUT     (C),D
        OUT     (C),E
        OUT     (C),H
        OUT     (C),L
        OUT     (C),A
        OUTI
        OTIR
        OUTD
        OTDR
; ---- directives, number forms, expressions ----
        ORG     400H
TABLE:  DB      1,+2,-3,$7F,0FFH,'[',"AB",'it''s'
        DB      CONST*2,CONST/3,CONST&0FH,CONST|1,CONST^3,1<<7,80H>>4,(1+2)*3,~0&0FFH,CONST%5
        DB      1010B,17Q,0x1F,$1f,99D
        DW      WORDV,-1,TABLE,$
        DS      4               ; reserved, nothing emitted
AFTER   DB      0               ; a label without colon
        DS      2,0AAH          ; filled
BASE2   EQU     480H
OFFSET  EQU     TABLE-BASE2     ; a 16-bit difference (0FF80H) used as a displacement
        LD      A,(IX+OFFSET)
        LD      (IY+OFFSET+1),B
lower   ld      a,b             ; case does not matter
        ld      (ix-1),'x'
; ---- macros ----
PUT     MACRO   VALUE,WHERE
        LD      A,VALUE
        LD      (WHERE),A
        ENDM
TWICE   MACRO   V
        PUT     V,WORDV
        PUT     V+1,WORDV+1
        ENDM
        PUT     5,TABLE
        TWICE   7
HERE    EQU     $
        JP      HERE
        LD      HL,LATER
        END
        DB      99              ; after END: ignored
