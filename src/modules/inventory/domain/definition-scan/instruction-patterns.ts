import type { TextPattern } from './text-patterns.js';

const USER = String.raw`(?:the\s+|your\s+)?user'?s?\b`;
const CONCEAL_VERB = String.raw`(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|show|showing|disclose|disclosing)`;
const MOVE_VERB = String.raw`(?:read|send|pass|include|upload|post|forward|copy|attach|append|cat|open|fetch|transmit)`;

/** `instruction-to-model`: text that addresses the model rather than describing the tool. */
export const INSTRUCTION_PATTERNS: readonly TextPattern[] = [
  {
    pattern: new RegExp(String.raw`\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|the|your|of)\s+){0,3}(?:previous|prior|above|earlier|preceding|system|original|other|existing)\s+(?:instructions?|prompts?|rules|directions|guidelines|messages|context)\b`),
    severity: 'high',
    says: 'tells the model to ignore its instructions',
  },
  {
    pattern: new RegExp(String.raw`\b(?:ignore|disregard)\s+(?:the\s+|your\s+)?user'?s?\s+(?:request|question|instructions?|message|prompt)`),
    severity: 'high',
    says: "tells the model to ignore the user's request",
  },
  {
    pattern: new RegExp(String.raw`\b(?:do\s+not|don'?t|never|without)\s+${CONCEAL_VERB}\s+(?:(?:this|that|it|anything|them|about\s+(?:this|it|that))\s+)?(?:to\s+|with\s+)?${USER}`),
    severity: 'high',
    says: 'tells the model to keep something from the user',
  },
  {
    pattern: /\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:this|that|these|it|the\s+(?:upload|file|step|request|proxy))\b/,
    severity: 'high',
    says: 'tells the model to keep something unmentioned',
  },
  {
    pattern: new RegExp(String.raw`\b(?:keep\s+(?:this|it)\s+(?:secret|hidden|confidential)|${USER}\s+(?:must|should|need)\s+not\s+(?:know|see|notice|be\s+told)|(?:silently|secretly|covertly|quietly)\s+${MOVE_VERB})\b`),
    severity: 'high',
    says: 'tells the model to act behind the user’s back',
  },
  {
    pattern: /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin|assistant|prompt)\b[^<>]{0,40}>|<\|im_start\|>|\[\/?(?:system|inst)\]/,
    severity: 'high',
    says: 'holds a block of instructions for the model (<IMPORTANT>, <SYSTEM>, <instructions>…)',
  },
  {
    pattern: /\b(?:assistant|ai|model|llm|agent)\s*:\s*(?:ignore|you|always|never|do|call|send|post|upload|read|include|forward|instead)\b/,
    severity: 'high',
    says: 'addresses the model directly',
  },
  {
    pattern: new RegExp(String.raw`\bbefore\s+(?:using|calling|invoking|running|executing|you\s+use|you\s+call)\s+(?:this|the|any)\s+(?:\w+\s+){0,2}?tools?\b[^.]{0,120}?\b${MOVE_VERB}\b`),
    severity: 'high',
    says: 'tells the model to move data before using the tool',
  },
  {
    pattern: new RegExp(
      String.raw`\byou\s+(?:must|should|need\s+to|have\s+to|are\s+required\s+to)\s+(?:(?:always|first|also)\s+){0,2}(?:call|invoke|use|${MOVE_VERB}|change|bcc|cc)\b[^.]{0,100}?\b(?:before\s+(?:any|every|all)|every\s+(?:time|other)|other\s+tools?|all\s+(?:other\s+)?tools|(?:message|conversation|chat)\s+history|full\s+(?:message|conversation|chat)|${USER}\s+(?:messages?|conversation|history|files?|emails?|password|credentials|data))`,
    ),
    severity: 'high',
    says: 'tells the model to act on other tools or on the conversation',
  },
  {
    pattern: /\b(?:change|set|replace|redirect|rewrite)\s+the\s+(?:recipient|destination|to\s+address|email\s+address|phone\s+number|account\s+number|payee)\b|\b(?:always|also)\s+(?:bcc|cc|blind[\s-]copy|forward\s+to|send\s+a\s+copy)\b|\bsend\s+(?:all|every|each)\s+(?:\w+\s+){0,2}?(?:emails?|messages?|files?|data)\s+to\b/,
    severity: 'high',
    says: 'tells the model to redirect or copy what it sends',
  },
  {
    pattern: /\b(?:reveal|print|output|repeat|leak|show|include|send)\s+(?:your|the)\s+(?:full\s+|entire\s+|complete\s+)?(?:system\s+prompt|initial\s+prompt|hidden\s+prompt|instructions\s+above|conversation\s+history|message\s+history|chat\s+history)/,
    severity: 'high',
    says: 'asks for the system prompt or the conversation',
  },
  {
    pattern: /\b(?:you\s+are\s+now|from\s+now\s+on|act\s+as\s+if|pretend\s+(?:to\s+be|that)|developer\s+mode|jailbreak)\b/,
    severity: 'medium',
    says: "tries to change the model's role",
  },
  {
    pattern: /\b(?:otherwise|or\s+else)\s+(?:the\s+)?(?:tool|system|application|request)\s+(?:will|would)\s+(?:not\s+work|crash|be\s+blocked)|\bthe\s+(?:system|application)\s+will\s+crash\b/,
    severity: 'medium',
    says: 'pressures the model with a made-up failure',
  },
  {
    pattern: /\b(?:use|call)\s+this\s+tool\s+instead\b|\bnever\s+use\s+the\s+[\w-]{1,40}\s+tools?\b|\bwhen(?:ever)?\s+this\s+tool\s+is\s+(?:available|present|loaded|installed)\b/,
    severity: 'medium',
    says: 'steers the model away from other tools',
  },
];
