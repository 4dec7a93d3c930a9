import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { Authorize, Tool, Toolset } from 'scope-tool/decorators';
import { requireScope } from './policies';

/** Where and how to report the weather. */
export class CurrentWeatherInput {
  /** The city and state, e.g. San Francisco, CA */
  @IsString() @Length(1, 100) location!: string;
  /** Temperature unit; celsius when absent. */
  @IsOptional() @IsIn(['celsius', 'fahrenheit']) unit?: 'celsius' | 'fahrenheit';
}

/** A place to look up. */
export class WeatherInput {
  /** The city, e.g. Paris */
  @IsString() @Length(1, 100) location!: string;
}

const READINGS: Record<string, number> = { 'Boston, MA': 7, Paris: 11 };

@Toolset()
@Authorize(requireScope('weather:read'))
export class WeatherTools {
  /** Get the current weather in a given location. */
  @Tool({ name: 'get_current_weather' })
  currentWeather(input: CurrentWeatherInput): { location: string; temperature: number; unit: string } {
    const celsius = READINGS[input.location] ?? 15;
    const unit = input.unit ?? 'celsius';
    const temperature = unit === 'celsius' ? celsius : Math.round(celsius * 1.8 + 32);
    return { location: input.location, temperature, unit };
  }

  /** Get a one-line weather report for a city. */
  @Tool({ name: 'get_weather' })
  weather(input: WeatherInput): string {
    return `${input.location}: ${READINGS[input.location] ?? 15} °C, light wind`;
  }
}
