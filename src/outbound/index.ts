// Outbound HTTP for URL imports and callbacks: only public addresses unless allow-listed.
export { ADDRESS_CLASS_LABEL, classifyAddress, isPublicAddress, type AddressClass } from './address-class.js';
export { parseAllowedHosts } from './allowed-hosts.js';
export { guessContentType, type DataFormat } from './content-type.js';
export { openDownload, type Download, type DownloadOptions } from './download.js';
export { OutboundFailed, OutboundRefused } from './errors.js';
export { postJson, type PostJsonOptions } from './post-json.js';
export { outboundRefusal } from './precheck.js';
export { assertTargetAllowed, guardedAgents } from './guarded-agent.js';
export { sdkBodyStream } from './body-stream.js';
export { Deadline } from './deadline.js';
