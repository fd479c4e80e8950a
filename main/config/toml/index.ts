// Public surface of the TOML reader/editor used for containerd config.toml and crio.conf.
export { parseToml } from './parse';
export { parserView } from './comment-lines';
export { removeArrayElement, removeTomlKey, setTomlValue } from './edit';
export { formatKeyPath, isBareKey } from './format';
export { MAX_TOML_BYTES } from './limits';
export type {
  TomlEditResult,
  TomlEditValue,
  TomlKeyLocation,
  TomlParseError,
  TomlParseResult,
  TomlPath,
  TomlSpan,
  TomlTableLocation,
} from './types';
