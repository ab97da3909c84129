export { highestSeverity, type DefinitionFinding, type FindingSeverity, type ScannedTool } from './definition-finding.js';
export { DefinitionScanner } from './definition-scanner.js';
