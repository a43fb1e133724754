import { describe, expect, it } from 'vitest';
import {
  CHAT_MESSAGE,
  chatMessageSchema,
  chatsSeenBy,
  chatOfDirection,
  defaultChat,
  EMOJI,
  isFrameId,
  isImageAttachment,
  isMessageBodyOverRawCap,
  MESSAGE_BODY_RAW_MAX_LENGTH,
  messageBodyLength,
  messageBodyProblem,
  messageContentSchema,
  parseReadIds,
  serverFrameSchema,
  SOCKET_EVENT,
  staffChatOf,
  staffDirectionOf,
  writerDisplayName,
} from './index';
import { ROLE } from '../auth/index';

describe('SPEC §3 directions and chats', () => {
  it('puts 1 and 3 in the writer chat and 2 and 6 in the support chat', () => {
    expect([1, 3].map((d) => chatOfDirection(d as 1 | 3))).toEqual(['writer', 'writer']);
    expect([2, 6].map((d) => chatOfDirection(d as 2 | 6))).toEqual(['support', 'support']);
    expect(staffDirectionOf('writer')).toBe(3);
    expect(staffDirectionOf('support')).toBe(6);
  });
  it('shows a writer the writer chat alone and everyone else both; a staff member answers in their own chat (CONTRACT "Staff side")', () => {
    expect(chatsSeenBy(ROLE.writer)).toEqual(['writer']);
    expect(chatsSeenBy(ROLE.support)).toEqual(['writer', 'support']);
    expect(chatsSeenBy(ROLE.customer)).toEqual(['writer', 'support']);
    expect(chatsSeenBy(ROLE.customerAlt)).toEqual(['writer', 'support']);
    expect(staffChatOf(ROLE.writer)).toBe('writer');
    expect(staffChatOf(ROLE.support)).toBe('support');
  });
  it('has 39 distinct emoji (SPEC §3)', () => {
    expect(EMOJI).toHaveLength(39);
    expect(new Set(EMOJI).size).toBe(39);
  });
});

describe('SPEC §5 "Chat": 1500 characters, no empty message without files', () => {
  it("refuses 1501 characters with SPEC's text and takes 1500", () => {
    expect(messageBodyProblem('a'.repeat(1501), false)).toBe('Message cannot be more than 1500 characters long.');
    expect(messageBodyProblem('a'.repeat(1500), false)).toBeNull();
  });
  it('refuses an empty text without files and takes it with files', () => {
    expect(messageBodyProblem('  ', false)).toBe(CHAT_MESSAGE.empty);
    expect(messageBodyProblem('', true)).toBeNull();
  });
  it('counts characters (code points), not UTF-16 units: 1,500 emoji are taken, 1,501 refused (ADR 0068)', () => {
    expect('😀'.repeat(1500)).toHaveLength(3000);
    expect(messageBodyLength('😀'.repeat(1500))).toBe(1500);
    expect(messageBodyProblem('😀'.repeat(1500), false)).toBeNull();
    expect(messageBodyProblem('😀'.repeat(1501), false)).toBe(CHAT_MESSAGE.tooLong);
    expect(messageBodyProblem(`${'a'.repeat(1000)}${'🎉'.repeat(500)}`, false)).toBeNull();
    expect(messageBodyProblem(`${'a'.repeat(1000)}${'🎉'.repeat(501)}`, false)).toBe(CHAT_MESSAGE.tooLong);
    // A flag is two code points: two characters of the 1,500.
    expect(messageBodyLength('🇺🇸')).toBe(2);
  });
  it('refuses a raw body past 4 × 1,500 UTF-16 units with the same text, before it is stripped (ADR 0067)', () => {
    expect(MESSAGE_BODY_RAW_MAX_LENGTH).toBe(6000);
    expect(isMessageBodyOverRawCap('<'.repeat(6000))).toBe(false);
    expect(isMessageBodyOverRawCap('<'.repeat(6001))).toBe(true);
    expect(messageContentSchema.safeParse({ body: 'x'.repeat(6001) }).success).toBe(false);
    expect(messageContentSchema.safeParse({ body: '😀'.repeat(1500) }).success).toBe(true);
  });
});

describe('SPEC §4 "Messages": the default chat', () => {
  it('opens the writer chat by default, support without a writer, when only support has unread, or with panel=support', () => {
    expect(defaultChat({ hasWriter: true, unread: { writer: 0, support: 0 } })).toBe('writer');
    expect(defaultChat({ hasWriter: false, unread: { writer: 0, support: 0 } })).toBe('support');
    expect(defaultChat({ hasWriter: true, unread: { writer: 0, support: 2 } })).toBe('support');
    expect(defaultChat({ hasWriter: true, unread: { writer: 1, support: 2 } })).toBe('writer');
    expect(defaultChat({ hasWriter: true, unread: { writer: 1, support: 0 }, panel: 'support' })).toBe('support');
  });
});

describe('wire shapes', () => {
  it('reads the message field as body, sticker or emoji, never two at once', () => {
    expect(messageContentSchema.safeParse({ body: 'hi' }).success).toBe(true);
    expect(messageContentSchema.safeParse({ sticker: 3 }).success).toBe(true);
    expect(messageContentSchema.safeParse({ emoji: '🎉' }).success).toBe(true);
    expect(messageContentSchema.safeParse({ body: 'hi', sticker: 3 }).success).toBe(false);
    expect(messageContentSchema.safeParse({ html: 'x' }).success).toBe(false);
  });
  it('parses "1,2,3" read lists, dropping junk and duplicates', () => {
    expect(parseReadIds('1, 2,3,3,x,-4,0')).toEqual([1, 2, 3]);
    expect(parseReadIds([5, 6])).toEqual([5, 6]);
  });
  it('parses a new-message frame and refuses an unknown event', () => {
    const message = {
      id: 1,
      orderId: 2,
      sequence: 1,
      direction: { id: 6 },
      state: { id: 1 },
      body: 'hi',
      sticker: null,
      emoji: null,
      files: [],
      dateCreated: '2026-01-01T00:00:00.000Z',
      clientId: null,
    };
    expect(chatMessageSchema.parse(message).direction.id).toBe(6);
    expect(serverFrameSchema.safeParse({ event: SOCKET_EVENT.newMessage, data: { message } }).success).toBe(true);
    expect(serverFrameSchema.safeParse({ event: 99, data: {} }).success).toBe(false);
  });
});

describe('ADR 0067: the ids a client frame may carry', () => {
  it('takes 1 to 2,147,483,647 and nothing else', () => {
    expect([1, 42, 2_147_483_647].every(isFrameId)).toBe(true);
    expect([0, -1, 2_147_483_648, 99_999_999_999, 1.5, Number.NaN, Number.POSITIVE_INFINITY].some(isFrameId)).toBe(false);
  });
});

describe('ADR 0095: pictures among the attachments, the writer named to the customer', () => {
  it('takes png, jpg, jpeg, gif and webp (any case) as pictures, nothing else', () => {
    for (const name of ['a.png', 'b.JPG', 'c.jpeg', 'd.gif', 'e.webp', 'my.photo.Png']) expect(isImageAttachment(name)).toBe(true);
    for (const name of ['a.bmp', 'b.pdf', 'png', '.png', 'c.png.exe', 'd.svg', 'e', 'f.docx']) expect(isImageAttachment(name)).toBe(false);
  });
  it('names a writer by first name and initial, never the full last name', () => {
    expect(writerDisplayName('Maria', 'Smith')).toBe('Maria S.');
    expect(writerDisplayName('  Maria ', ' smith')).toBe('Maria S.');
    expect(writerDisplayName('Maria', '')).toBe('Maria');
    expect(writerDisplayName('', 'Smith')).toBe('S.');
    expect(writerDisplayName('', '  ')).toBeNull();
    expect(writerDisplayName(null, undefined)).toBeNull();
    expect(writerDisplayName('Zoë', 'Łukasiewicz')).toBe('Zoë Ł.');
  });
  it('a message may carry the sender name, and parses without it', () => {
    const base = {
      id: 1,
      orderId: 2,
      sequence: 1,
      direction: { id: 3 },
      state: { id: 1 },
      body: 'hi',
      sticker: null,
      emoji: null,
      files: [],
      dateCreated: '2026-01-01T00:00:00.000Z',
      clientId: null,
    };
    expect(chatMessageSchema.parse({ ...base, senderName: 'Maria S.' }).senderName).toBe('Maria S.');
    expect(chatMessageSchema.parse(base).senderName).toBeUndefined();
    expect(chatMessageSchema.safeParse({ ...base, senderName: 5 }).success).toBe(false);
  });
});
